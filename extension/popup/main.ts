/** Popup entry: the real `browser` goes in here and only here (see popup.ts). */
import browser from 'webextension-polyfill';
import { startPopup } from './popup.ts';

void startPopup(document, browser);

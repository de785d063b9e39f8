/** Options entry: the real `browser` goes in here and only here (see options.ts). */
import browser from 'webextension-polyfill';
import { startOptions } from './options.ts';

void startOptions(document, browser);

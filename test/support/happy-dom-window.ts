/**
 * Test support: a happy-dom window that only parses. Script evaluation, script / CSS / iframe
 * loading and navigation are off, so a document holds exactly the markup a test writes into it,
 * as a browser would have built it before the content script runs.
 */
import { Window } from 'happy-dom';

export function parsingWindow(url: string): Window {
  return new Window({
    url,
    settings: {
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
      handleDisabledFileLoadingAsSuccess: true,
      navigation: { disableMainFrameNavigation: true, disableChildFrameNavigation: true, disableChildPageNavigation: true },
    },
  });
}

/**
 * i18n keys the manifest and the background use (besides whatever the UI uses): every
 * `public/_locales/{en,zh_CN}/messages.json` must have at least these.
 */
export const MESSAGE_KEYS = [
  'extName',
  'extDescription',
  'menuMarkLinkOn',
  'menuMarkLinkOff',
] as const;

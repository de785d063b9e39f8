/**
 * The options page's "Companion" section: the port of `linkscent serve`, the pairing token it
 * printed, one Pair / Test button, and a status line (connected with the companion's version and
 * number of crawls / not running / token refused / …).
 *
 * The token is checked here only for its form, so a typo is caught before a round trip; the
 * background checks again and is the one that asks the companion. `statusLine.dataset.state`
 * names the outcome ('connected', 'unpaired', 'checking' or the failure's problem) for styling
 * and for the end-to-end test.
 */
import { DEFAULT_SERVICE_PORT } from '../../shared/service-api/types.ts';
import { COMPANION_ORIGINS } from '../companion-client/host-permissions.ts';
import type { UiToBackgroundReplies } from '../messages/ui-to-background.ts';
import type { UiSend } from '../messages/send.ts';
import { cleanToken, isPairingToken, isValidPort } from '../storage/validate.ts';
import { failureText, isCompanionFailure } from '../ui/companion-text.ts';
import { byId, errorText, showStatus } from '../ui/dom.ts';
import type { Translate } from '../ui/i18n.ts';

/** The part of `browser.permissions` the section uses. */
export interface PermissionsLike {
  request(permissions: { origins: string[] }): Promise<boolean>;
}

type PairReply = UiToBackgroundReplies['companion/pair'] | UiToBackgroundReplies['companion/status'];

export async function startCompanionSection(doc: Document, send: UiSend, t: Translate, permissions?: PermissionsLike): Promise<void> {
  const form = byId(doc, 'companion-form', HTMLFormElement);
  const status = byId(doc, 'companion-status', HTMLElement);
  const portField = form.elements.namedItem('port') as HTMLInputElement;
  const tokenField = form.elements.namedItem('token') as HTMLInputElement;
  portField.value = String(DEFAULT_SERVICE_PORT); // until the stored one arrives

  const show = (state: string, text: string, kind: 'ok' | 'error') => {
    status.dataset['state'] = state;
    showStatus(status, text, kind);
  };

  const render = (reply: PairReply): void => {
    if (reply.ok) {
      if (reply.status === null) show('unpaired', t('optionsCompanionUnpaired'), 'ok');
      else show('connected', t('optionsCompanionConnected', reply.status.version, reply.status.port, reply.status.crawls), 'ok');
    } else {
      show(isCompanionFailure(reply) ? reply.problem : 'error', failureText(t, reply), 'error');
    }
  };

  // Whatever the user typed or asked before the stored pairing arrived wins over it.
  let touched = false;
  form.addEventListener('input', () => {
    touched = true;
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    touched = true;
    // Asked at once, inside the click: Firefox grants a permission request only from a user
    // action, and lets the user withhold host permissions at install. Chromium granted them at
    // install and answers true without asking.
    const granted = permissions ? permissions.request({ origins: [...COMPANION_ORIGINS] }) : Promise.resolve(true);
    void (async () => {
      try {
        const port = Number(portField.value);
        if (portField.value.trim() === '' || !isValidPort(port)) return show('error', t('optionsErrorPort'), 'error');
        const token = cleanToken(tokenField.value);
        if (token !== '' && !isPairingToken(token)) return show('error', t('optionsErrorToken'), 'error');
        if (!(await granted.catch(() => false))) return show('error', t('optionsCompanionNoPermission'), 'error');
        tokenField.value = token;
        show('checking', t('optionsCompanionChecking'), 'ok');
        render(await send({ type: 'companion/pair', port, token }));
      } catch (error) {
        show('error', errorText(error), 'error');
      }
    })();
  });

  const stored = await send({ type: 'companion/get' });
  if (touched) return;
  portField.value = String(stored.port);
  tokenField.value = stored.token;
  if (stored.token === '') {
    show('unpaired', t('optionsCompanionUnpaired'), 'ok');
    return;
  }
  show('checking', t('optionsCompanionChecking'), 'ok');
  const reply = await send({ type: 'companion/status' });
  if (!touched) render(reply);
}

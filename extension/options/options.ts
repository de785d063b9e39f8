/**
 * The options page: topics (create, edit, delete, activate), the extension-wide settings
 * (excluded sites, links per page), the pairing with the companion (`companion-section.ts`), and
 * export / import of the whole database.
 *
 * Like the popup it keeps no state the background does not have: after each change it lists the
 * topics and reads the settings again. `browser` is a structural parameter so the page can be
 * driven under happy-dom with a fake one.
 */
import type { Topic } from '../../shared/model/types.ts';
import type { ExtensionSettings } from '../messages/settings.ts';
import { createUiSender, type MessageRuntime, type UiSend } from '../messages/send.ts';
import { byId, errorText, h, showStatus } from '../ui/dom.ts';
import { createTranslate, localize, type I18nLike, type Translate } from '../ui/i18n.ts';
import { startCompanionSection, type PermissionsLike } from './companion-section.ts';
import { exportDatabase, importDatabase } from './data-transfer.ts';
import { parseExcludedSites } from './excluded-sites.ts';
import { fillTopicForm, readTopicForm } from './topic-form.ts';

/** The part of `browser` the options page uses. */
export interface OptionsBrowser {
  runtime: MessageRuntime;
  i18n: I18nLike;
  /** Absent in tests that do not pair. */
  permissions?: PermissionsLike;
}

interface Page {
  doc: Document;
  send: UiSend;
  t: Translate;
  topics: Topic[];
}

/** One row of the topic list: name, an "active" mark or an "activate" button, edit, delete. */
function topicRow(page: Page, topic: Topic, activeId: string | null, actions: TopicActions): HTMLLIElement {
  const { doc, t } = page;
  const row = h(doc, 'li', { 'data-topic-id': topic.id });
  row.append(h(doc, 'span', { class: 'name' }, topic.name));
  if (topic.id === activeId) {
    row.append(h(doc, 'span', { class: 'active' }, t('optionsTopicActive')));
  } else {
    const activate = h(doc, 'button', { type: 'button', class: 'activate' }, t('optionsTopicActivate'));
    activate.addEventListener('click', () => actions.activate(topic));
    row.append(activate);
  }
  const edit = h(doc, 'button', { type: 'button', class: 'edit' }, t('optionsTopicEdit'));
  edit.addEventListener('click', () => actions.edit(topic));
  // Deleting takes two clicks on the same button: no modal dialog, and no accidental loss.
  const remove = h(doc, 'button', { type: 'button', class: 'delete danger' }, t('optionsTopicDelete'));
  remove.addEventListener('click', () => {
    if (remove.dataset['armed'] === 'true') actions.remove(topic);
    else {
      remove.dataset['armed'] = 'true';
      remove.textContent = t('optionsTopicDeleteConfirm', topic.name);
    }
  });
  row.append(edit, remove);
  return row;
}

interface TopicActions {
  activate(topic: Topic): void;
  edit(topic: Topic): void;
  remove(topic: Topic): void;
}

function fillSettings(form: HTMLFormElement, settings: ExtensionSettings): void {
  (form.elements.namedItem('excludedSites') as HTMLTextAreaElement).value = settings.excludedSites.join('\n');
  (form.elements.namedItem('maxLinksPerPage') as HTMLInputElement).value = String(settings.maxLinksPerPage);
}

/** Wires the options page in `doc` to the background and shows the current state. */
export async function startOptions(doc: Document, browser: OptionsBrowser): Promise<void> {
  const t = createTranslate(browser.i18n);
  const page: Page = { doc, send: createUiSender(browser.runtime), t, topics: [] };
  const { send } = page;
  localize(doc, t);

  const list = byId(doc, 'topic-list', HTMLUListElement);
  const empty = byId(doc, 'topics-empty', HTMLElement);
  const topicForm = byId(doc, 'topic-form', HTMLFormElement);
  const topicHeading = byId(doc, 'topic-form-heading', HTMLElement);
  const topicStatus = byId(doc, 'topic-status', HTMLElement);
  const settingsForm = byId(doc, 'settings-form', HTMLFormElement);
  const settingsStatus = byId(doc, 'settings-status', HTMLElement);
  const dataStatus = byId(doc, 'data-status', HTMLElement);
  const importFile = byId(doc, 'import-file', HTMLInputElement);

  const openForm = (topic: Topic | null): void => {
    fillTopicForm(topicForm, topic);
    topicHeading.textContent = topic === null ? t('optionsTopicNew') : t('optionsTopicEditing', topic.name);
    showStatus(topicStatus, '', 'ok');
    topicForm.hidden = false;
    (topicForm.elements.namedItem('name') as HTMLInputElement).focus();
  };

  /** Runs an action; a thrown error or Failure line lands in `status`, never uncaught. */
  const guard = (status: HTMLElement, action: () => Promise<void>) => async (): Promise<void> => {
    try {
      await action();
    } catch (error) {
      showStatus(status, errorText(error), 'error');
    }
  };

  const actions: TopicActions = {
    activate: (topic) =>
      void guard(topicStatus, async () => {
        const reply = await send({ type: 'topics/activate', topicId: topic.id });
        if (!reply.ok) throw new Error(reply.error);
        await loadTopics();
      })(),
    edit: (topic) => openForm(topic),
    remove: (topic) =>
      void guard(topicStatus, async () => {
        await send({ type: 'topics/delete', topicId: topic.id });
        if ((topicForm.elements.namedItem('id') as HTMLInputElement).value === topic.id) topicForm.hidden = true;
        await loadTopics();
      })(),
  };

  const loadTopics = async (): Promise<void> => {
    const reply = await send({ type: 'topics/list' });
    page.topics = reply.topics;
    list.replaceChildren(...reply.topics.map((topic) => topicRow(page, topic, reply.activeId, actions)));
    empty.hidden = reply.topics.length > 0;
  };

  const loadSettings = async (): Promise<void> => fillSettings(settingsForm, await send({ type: 'settings/get' }));

  byId(doc, 'topic-new', HTMLButtonElement).addEventListener('click', () => openForm(null));
  byId(doc, 'topic-cancel', HTMLButtonElement).addEventListener('click', () => {
    topicForm.hidden = true;
  });

  topicForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void guard(topicStatus, async () => {
      const read = readTopicForm(topicForm, t);
      if ('error' in read) throw new Error(read.error);
      const reply = await send({ type: 'topics/save', topic: read.topic });
      if (!reply.ok) throw new Error(reply.error);
      fillTopicForm(topicForm, reply.topic);
      topicHeading.textContent = t('optionsTopicEditing', reply.topic.name);
      showStatus(topicStatus, t('optionsSaved'), 'ok');
      await loadTopics();
    })();
  });

  settingsForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void guard(settingsStatus, async () => {
      const sites = parseExcludedSites((settingsForm.elements.namedItem('excludedSites') as HTMLTextAreaElement).value);
      if ('invalid' in sites) throw new Error(t('optionsErrorSite', sites.invalid));
      const maxLinksPerPage = Number((settingsForm.elements.namedItem('maxLinksPerPage') as HTMLInputElement).value);
      if (!Number.isInteger(maxLinksPerPage) || maxLinksPerPage < 1) throw new Error(t('optionsErrorMaxLinks'));
      const reply = await send({ type: 'settings/save', settings: { excludedSites: sites.hosts, maxLinksPerPage } });
      if (!reply.ok) throw new Error(reply.error);
      fillSettings(settingsForm, reply.settings);
      showStatus(settingsStatus, t('optionsSaved'), 'ok');
    })();
  });

  byId(doc, 'export', HTMLButtonElement).addEventListener(
    'click',
    guard(dataStatus, async () => {
      const outcome = await exportDatabase(doc, send, t);
      showStatus(dataStatus, outcome.message, outcome.ok ? 'ok' : 'error');
    }),
  );

  // Import merges; replacing everything is its own control, and asks first.
  for (const [input, replace] of [[importFile, false], [byId(doc, 'replace-file', HTMLInputElement), true]] as const) {
    input.addEventListener(
      'change',
      guard(dataStatus, async () => {
        const file = input.files?.[0];
        if (file === undefined) return;
        // Cleared first, so choosing the same file again (after fixing it) fires `change` again.
        input.value = '';
        if (replace && !(doc.defaultView?.confirm(t('optionsReplaceConfirm')) ?? false)) {
          showStatus(dataStatus, t('optionsReplaceCancelled'), 'ok');
          return;
        }
        const outcome = await importDatabase(file, send, t, replace);
        showStatus(dataStatus, outcome.message, outcome.ok ? 'ok' : 'error');
        if (outcome.ok) await Promise.all([loadTopics(), loadSettings()]);
      }),
    );
  }

  await guard(topicStatus, loadTopics)();
  await guard(settingsStatus, loadSettings)();
  const companionStatus = byId(doc, 'companion-status', HTMLElement);
  await guard(companionStatus, () => startCompanionSection(doc, send, t, browser.permissions))();
}

/**
 * Export and import of the whole database as a Dexie export file (dexie-export-import's
 * format, the same file the companion reads and writes).
 *
 * The background builds and checks the file; this page only moves text. An import that fails
 * changes nothing (the protocol's promise for 'db/import'), so its one-line error is all the
 * user needs to see.
 */
import type { UiSend } from '../messages/send.ts';
import type { Translate } from '../ui/i18n.ts';

export type Outcome = { ok: true; message: string } | { ok: false; message: string };

/** Saves `text` as a download named `fileName`, through a Blob URL and an `<a download>`. */
export function downloadText(doc: Document, text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  doc.body.append(link);
  link.click();
  link.remove();
  // Revoke on the next turn: the click's download has taken its own reference by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Asks the background for the export file and downloads it. */
export async function exportDatabase(doc: Document, send: UiSend, t: Translate): Promise<Outcome> {
  const reply = await send({ type: 'db/export' });
  if (!reply.ok) return { ok: false, message: reply.error };
  downloadText(doc, reply.fileText, reply.fileName);
  return { ok: true, message: t('optionsExported', reply.fileName) };
}

/** Largest file the page will read into memory; a bigger one is surely not an export. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

/**
 * Reads a chosen file and hands its text to the background: merged into what is stored (topics
 * by id, examples by link context), or, with `replace` (the caller asked the user first),
 * instead of it. The outcome says what was added.
 */
export async function importDatabase(file: Blob, send: UiSend, t: Translate, replace = false): Promise<Outcome> {
  if (file.size === 0) return { ok: false, message: t('optionsImportEmpty') };
  if (file.size > MAX_IMPORT_BYTES) return { ok: false, message: t('optionsImportTooLarge') };
  const fileText = await file.text();
  const reply = await send({ type: 'db/import', fileText, ...(replace ? { replace } : {}) });
  if (!reply.ok) return { ok: false, message: reply.error };
  return replace
    ? { ok: true, message: t('optionsReplaced', reply.topics, reply.total) }
    : { ok: true, message: t('optionsImported', reply.topics, reply.examples, reply.duplicates) };
}

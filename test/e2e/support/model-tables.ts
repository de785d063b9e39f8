/** What the export → clear → import tests compare: a model file's rows, as both browsers export it. */
import { expect } from 'vitest';

/** A model file's topics, examples, model and feature rows, without ids and save times, sorted. */
export function modelTables(fileText: string) {
  const file = JSON.parse(fileText) as { data: { data: { tableName: string; rows: Record<string, unknown>[] }[] } };
  const rows = (name: string) =>
    (file.data.data.find((table) => table.tableName === name)?.rows ?? [])
      .map(({ id: _id, savedAt: _savedAt, addedAt: _addedAt, $types: _types, ...row }) => JSON.stringify(row))
      .sort();
  const tables = { topics: rows('topics'), examples: rows('examples'), models: rows('models'), features: rows('features') };
  // The topic-pages site's four hubs give 48 labeled contexts and a model of more than 10 features.
  expect(tables.examples).toHaveLength(48);
  expect(tables.features.length).toBeGreaterThan(10);
  return tables;
}

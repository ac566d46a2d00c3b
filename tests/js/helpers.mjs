// Shared by the tests: the client config's contract (tests/web/test_client_config.py
// checks it is what the server renders) and a fake of localStorage.
import { readFileSync } from "node:fs";

export const config = JSON.parse(readFileSync(new URL("./client-config.json", import.meta.url), "utf8"));

// {read, write, keys} over a Map, as offline.js wraps localStorage (JSON values).
export function memoryStore(initial = {}) {
  const items = new Map(Object.entries(initial).map(([k, v]) => [k, JSON.stringify(v)]));
  return {
    items,
    read: (key, fallback) => (items.has(key) ? JSON.parse(items.get(key)) : fallback),
    write: (key, value) => (value === null ? items.delete(key) : items.set(key, JSON.stringify(value))),
    keys: () => Array.from(items.keys()),
  };
}

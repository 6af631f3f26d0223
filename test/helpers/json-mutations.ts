/** Mutations of JSON trees for property tests: the same edits, whichever decoder is under test. */
type JSONObject = Record<string, any>;

/** A JSON-tree mutation, addressed by a path of indexes into each level's keys (followed as deep as it goes). */
export type Mutation =
  | { action: 'delete'; path: number[] }
  | { action: 'set'; path: number[]; value: unknown }
  | { action: 'retype'; path: number[]; value: unknown }
  | { action: 'add'; path: number[]; key: string; value: unknown }
  | { action: 'wrap'; path: number[] };

/**
 * Applies mutations to a JSON copy of `seed`. `add` defines the key as an own data property, which is what
 * `JSON.parse` does with a `"__proto__"` key on the wire; `wrap` puts the addressed value inside an array.
 */
export function mutate(seed: unknown, mutations: readonly Mutation[]): unknown {
  let root: unknown = JSON.parse(JSON.stringify(seed));
  for (const mutation of mutations) {
    let parent: JSONObject | undefined;
    let key: string | undefined;
    let node: unknown = root;
    for (const index of mutation.path) {
      if (node === null || typeof node !== 'object') break;
      const keys = Object.keys(node);
      if (keys.length === 0) break;
      parent = node as JSONObject;
      key = keys[index % keys.length] as string;
      node = parent[key];
    }
    const replace = (value: unknown) => {
      if (parent === undefined || key === undefined) root = value;
      else Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true });
    };
    switch (mutation.action) {
      case 'add':
        if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
          Object.defineProperty(node, mutation.key, { value: mutation.value, enumerable: true, writable: true, configurable: true });
        }
        break;
      case 'delete':
        if (parent === undefined || key === undefined) break;
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else delete parent[key];
        break;
      case 'set':
      case 'retype':
        replace(mutation.value);
        break;
      case 'wrap':
        replace([node]);
        break;
    }
  }
  return root;
}

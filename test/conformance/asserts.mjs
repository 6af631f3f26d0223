// Assertions and helpers shared by the conformance scenarios and the demo-server checks (plain JavaScript, any runtime).

export function check(condition, message) {
  if (!condition) throw new Error(`assertion failed: ${message}`);
}

export function equal(actual, expected, message) {
  const a = JSON.stringify(actual);
  const b = JSON.stringify(expected);
  if (a !== b) throw new Error(`assertion failed: ${message}\n  expected ${b}\n  received ${a}`);
}

export async function items(stream) {
  const collected = [];
  for await (const item of stream) collected.push(item);
  return collected;
}

export async function failureOf(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('assertion failed: expected a rejection');
}

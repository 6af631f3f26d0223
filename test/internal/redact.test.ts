import { describe, expect, it } from 'vitest';
import { headerSecrets, isSecretKey, REDACTED, redactHeaders, redactText, redactValue, removeSecrets, secretForms } from '../../src/internal/redact.js';

const OPENAI_KEY = 'sk-proj-AbCdEf0123456789xyz';

describe('redactText', () => {
  it('replaces every occurrence of a configured secret', () => {
    expect(redactText('key=hunter22 and again hunter22', ['hunter22'])).toBe(`key=${REDACTED} and again ${REDACTED}`);
  });

  it('replaces several configured secrets', () => {
    expect(redactText('a=alpha-1 b=bravo-2', ['alpha-1', 'bravo-2'])).toBe(`a=${REDACTED} b=${REDACTED}`);
  });

  it('ignores configured secrets shorter than 4 characters', () => {
    expect(redactText('abc is not secret, neither is a or xy', ['abc', 'a', 'xy', ''])).toBe('abc is not secret, neither is a or xy');
  });

  it('redacts a configured secret of exactly 4 characters', () => {
    expect(redactText('pin 1234', ['1234'])).toBe(`pin ${REDACTED}`);
  });

  it('ignores non-string entries in the secret list', () => {
    const secrets = [42, null, 'real-secret'] as unknown as string[];
    expect(redactText('42 real-secret', secrets)).toBe(`42 ${REDACTED}`);
  });

  it('masks a bearer token but keeps the scheme word', () => {
    expect(redactText('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig')).toBe(`Authorization: Bearer ${REDACTED}`);
  });

  it('masks Basic credentials', () => {
    expect(redactText('Basic dXNlcjpwYXNzd29yZA==')).toBe(`Basic ${REDACTED}`);
  });

  it('leaves a short word after Bearer alone', () => {
    expect(redactText('Bearer token')).toBe('Bearer token');
  });

  it('masks sk- style API keys wherever they appear', () => {
    expect(redactText(`Incorrect API key provided: ${OPENAI_KEY}. You can find your key at https://x.test.`)).toBe(
      `Incorrect API key provided: ${REDACTED}. You can find your key at https://x.test.`,
    );
  });

  it('masks GitHub and Google style tokens', () => {
    expect(redactText('ghp_abcdefghijklmnop1234')).toBe(REDACTED);
    expect(redactText('AIzaSyA1234567890abcdefghij')).toBe(REDACTED);
  });

  it('does not touch ordinary words that merely start like a key', () => {
    expect(redactText('ask-me-anything and sk-short')).toBe('ask-me-anything and sk-short');
  });

  it('removes a configured secret even when it is not token-shaped', () => {
    const text = redactText('the key wx-plain-77 was rejected', ['wx-plain-77']);
    expect(text).not.toContain('wx-plain-77');
  });

  it('returns text without secrets unchanged', () => {
    expect(redactText('nothing to see here', ['secret-value'])).toBe('nothing to see here');
  });

  // Regression guard (fixed bug): the auth-scheme is case-insensitive (RFC 9110 §11.1), but only "Bearer"/"Basic" are recognised, so an echoed
  // "authorization: bearer <opaque token>" keeps the token (unless it also happens to look like sk-…/ghp_…).
  it('masks a credential after a keyword inside a variable name, and the password of a URL', () => {
    const text = 'provider refused OPENAI_API_KEY=Zx81kQ0pLmN4vB7cR2tYw9; DB_PASSWORD=hunter2hunter2hunter2x9 STRIPE_SECRET: sk_test_51Hx9Zx81kQ0pLmN4 at postgres://admin:s3cr3t-pw@db.internal:5432/app';
    const masked = redactText(text);
    for (const leaked of ['Zx81kQ0pLmN4vB7cR2tYw9', 'hunter2hunter2hunter2x9', 'sk_test_51Hx9Zx81kQ0pLmN4', 's3cr3t-pw']) expect(masked).not.toContain(leaked);
    expect(masked).toContain('OPENAI_API_KEY=[REDACTED]');
    expect(masked).toContain('postgres://admin:[REDACTED]@db.internal:5432/app');
    expect(redactText('the monkey=abcdefghijklmnop1234 and donkey: Zx81kQ0pLmN4vB7cR2tYw9')).toContain('monkey=abcdefghijklmnop1234'); // "key" inside a word is not a keyword
    expect(redactText('see https://example.com/docs and user@example.com')).toBe('see https://example.com/docs and user@example.com');
  });

  it('masks the password of a URL at any length, and at any length of its user name (no bound leaves it in)', () => {
    for (const [user, password] of [['admin', 'p'.repeat(200)], ['admin', 'Zx9q'.repeat(64)], ['u'.repeat(201), 'P4ssw0rdSecretValue'], ['', 'x'.repeat(300)]] as const) {
      const masked = redactText(`connect failed: postgres://${user}:${password}@db.internal:5432/app`);
      expect(masked, `${user.length}/${password.length}`).not.toContain(password);
      expect(masked).toContain('@db.internal:5432/app');
    }
    expect(redactText('see https://example.com/docs and user@example.com')).toBe('see https://example.com/docs and user@example.com');
  });

  it('masks a bearer token whose scheme is written in lower case', () => {
    expect(redactText('authorization: bearer 0123456789abcdefopaque')).not.toContain('0123456789abcdefopaque');
  });
});

describe('isSecretKey', () => {
  it.each(['apiKey', 'api_key', 'api-key', 'APIKEY', 'Authorization', 'password', 'access_token', 'x-api-key', 'client_secret', 'cookie', 'token', 'openaiApiKey', 'db_password'])(
    'treats %s as a secret key',
    (key) => {
      expect(isSecretKey(key)).toBe(true);
    },
  );

  it.each(['max_tokens', 'prompt_tokens', 'city', 'author', 'keyword', 'id'])('does not treat %s as a secret key', (key) => {
    expect(isSecretKey(key)).toBe(false);
  });
});

describe('redactValue', () => {
  it('replaces values under secret-looking keys', () => {
    expect(
      redactValue({ apiKey: 'abc', api_key: 'def', Authorization: 'Bearer x', password: 'p', access_token: 't', city: 'Paris' }),
    ).toEqual({ apiKey: REDACTED, api_key: REDACTED, Authorization: REDACTED, password: REDACTED, access_token: REDACTED, city: 'Paris' });
  });

  it('keeps null, undefined and empty values under secret keys as they are', () => {
    expect(redactValue({ password: null, apiKey: undefined, token: '' })).toEqual({ password: null, apiKey: undefined, token: '' });
  });

  it('replaces a whole object held under a secret key', () => {
    expect(redactValue({ credentials: { user: 'u', pass: 'p' } })).toEqual({ credentials: REDACTED });
  });

  it('redacts nested objects', () => {
    expect(redactValue({ request: { headers: { authorization: 'Bearer abc', accept: 'json' } } })).toEqual({
      request: { headers: { authorization: REDACTED, accept: 'json' } },
    });
  });

  it('redacts inside arrays', () => {
    expect(redactValue([{ apiKey: 'a' }, `key ${OPENAI_KEY}`, 3])).toEqual([{ apiKey: REDACTED }, `key ${REDACTED}`, 3]);
  });

  it('redacts configured secrets and token shapes in string values under ordinary keys', () => {
    expect(redactValue({ note: 'used my-config-secret here', echo: `got ${OPENAI_KEY}` }, ['my-config-secret'])).toEqual({
      note: `used ${REDACTED} here`,
      echo: `got ${REDACTED}`,
    });
  });

  it('passes primitives through', () => {
    expect(redactValue(42)).toBe(42);
    expect(redactValue(true)).toBe(true);
    expect(redactValue(null)).toBeNull();
    expect(redactValue(undefined)).toBeUndefined();
  });

  it('does not mutate the input', () => {
    const input = { apiKey: 'abc', nested: { password: 'p', list: [{ token: 't' }] }, text: OPENAI_KEY };
    const snapshot = structuredClone(input);
    const output = redactValue(input) as typeof input;
    expect(input).toEqual(snapshot);
    expect(output).not.toBe(input);
    expect(output.nested).not.toBe(input.nested);
    expect(output.nested.list).not.toBe(input.nested.list);
  });

  it('keeps a __proto__ key as an own property without polluting any prototype', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true, "apiKey": "abc"}, "city": "Oslo"}') as Record<string, unknown>;
    const output = redactValue(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(output, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(output, '__proto__')?.value).toEqual({ polluted: true, apiKey: REDACTED });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((output as { polluted?: unknown }).polluted).toBeUndefined();
    expect(output.city).toBe('Oslo');
  });

  it('keeps constructor and prototype keys as plain data', () => {
    const input = JSON.parse('{"constructor": {"prototype": {"x": 1}}}') as Record<string, unknown>;
    const output = redactValue(input) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(output, 'constructor')?.value).toEqual({ prototype: { x: 1 } });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('cuts off values nested deeper than 20 levels', () => {
    let deep: Record<string, unknown> = { leaf: 'bottom' };
    for (let index = 0; index < 30; index++) deep = { next: deep };
    expect(JSON.stringify(redactValue(deep))).toContain('[Truncated]');
    expect(JSON.stringify(redactValue(deep))).not.toContain('bottom');
  });

  it('returns class instances by reference', () => {
    const date = new Date(0);
    expect(redactValue({ at: date })).toEqual({ at: date });
    expect((redactValue({ at: date }) as { at: Date }).at).toBe(date);
  });
});

describe('headerSecrets', () => {
  it('takes credential-named headers whole, and the credential of a scheme-prefixed value on its own', () => {
    expect(headerSecrets({ Authorization: 'Bearer gw-token-123', 'x-api-key': 'key-456', accept: 'application/json' })).toEqual(['Bearer gw-token-123', 'gw-token-123', 'key-456']);
  });

  it('takes every other header a caller gives (a gateway credential under any name) but the plain ones and short values', () => {
    const headers = { 'x-gateway': 'Bearer gw-pass-789', 'PRIVATE-TOKEN': 'glpat-abcdefgh', 'x-title': 'short', 'user-agent': 'my-app/1.0.0 (linux)', 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'mcp-protocol-version': '2025-06-18', 'openai-api-key': 'sk-a1b2c3' };
    expect(headerSecrets(headers)).toEqual(['Bearer gw-pass-789', 'gw-pass-789', 'glpat-abcdefgh', 'sk-a1b2c3']);
  });

  it('skips values too short to redact safely and copes with no headers', () => {
    expect(headerSecrets({ authorization: 'abc', cookie: 'Basic ab' })).toEqual(['Basic ab']);
    expect(headerSecrets(undefined)).toEqual([]);
  });
});

describe('removeSecrets', () => {
  it('removes a secret however deep it sits, and returns the same value when there is none', () => {
    const secret = 'hdr-token-0123456789';
    let deep: unknown = { note: `echo Bearer ${secret}` };
    for (let level = 0; level < 40; level++) deep = { a: deep };
    expect(JSON.stringify(removeSecrets(deep, [secret]))).not.toContain(secret);
    expect(removeSecrets(deep, ['absent-secret-value'])).toBe(deep);
  });

  const secret = 'plant-7f3a9c';

  it('replaces a secret wherever a string holds it, leaving keys, other values and the input alone', () => {
    const input = { message: `denied ${secret}`, nested: [{ text: `again ${secret}!` }, 3, null], token: 'kept', n: 1 };
    const clean = removeSecrets(input, [secret]);
    expect(clean).toEqual({ message: `denied ${REDACTED}`, nested: [{ text: `again ${REDACTED}!` }, 3, null], token: 'kept', n: 1 });
    expect(input.message).toBe(`denied ${secret}`);
  });

  it('returns the same object when no string holds a secret', () => {
    const input = { message: 'clean', list: ['a', { b: 'c' }] };
    expect(removeSecrets(input, [secret])).toBe(input);
    expect(removeSecrets(input, [])).toBe(input);
  });

  it('keeps own __proto__ keys as data, never touching prototypes', () => {
    const input = JSON.parse(`{"__proto__": {"polluted": "${secret}"}, "x": "${secret}"}`) as Record<string, unknown>;
    const clean = removeSecrets(input, [secret]) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(clean, '__proto__')?.value).toEqual({ polluted: REDACTED });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('secretForms', () => {
  const secret = 'wx-account-secret-0042';

  it('lists the secret, its URL-encoded and JSON-escaped forms and its base64 cores at each alignment', () => {
    const forms = secretForms('a b"c\\d-0123456789');
    expect(forms).toContain('a b"c\\d-0123456789');
    expect(forms).toContain(encodeURIComponent('a b"c\\d-0123456789'));
    expect(forms).toContain('a b\\"c\\\\d-0123456789');
    expect(forms.filter((form) => /^[A-Za-z0-9+/_-]+$/.test(form)).length).toBeGreaterThanOrEqual(3);
  });

  it('finds the base64 of the secret inside any longer base64 text, at any offset', () => {
    for (const prefix of ['', 'u', 'us', 'user:', 'Authorization: Basic ']) {
      for (const suffix of ['', 'x', 'xy', ':tail']) {
        const encoded = btoa(`${prefix}${secret}${suffix}`);
        const urlSafe = encoded.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
        expect(redactText(`echo ${encoded}`, [secret]), `${prefix}|${suffix}`).toContain(REDACTED);
        expect(redactText(`echo ${urlSafe}`, [secret]), `url-safe ${prefix}|${suffix}`).toContain(REDACTED);
      }
    }
  });

  it('removes the JSON form with escaped slashes and the lowercase percent-encoded form', () => {
    const slashy = 'abc/def+ghi/0123456789';
    expect(redactText(`{"k":"${slashy.replace(/\//g, '\\/')}"}`, [slashy])).not.toContain('def');
    expect(redactText(`?k=${encodeURIComponent(slashy).toLowerCase()}`, [slashy])).not.toContain('def');
  });

  it('removes the URL-encoded form wherever it appears', () => {
    expect(redactText(`GET /cb?k=${encodeURIComponent(`x ${secret}/`)}`, ['x wx-account-secret-0042/'])).not.toContain(encodeURIComponent('x wx-account-secret-0042/'));
  });
});

describe('credential-shaped values (no configured secrets)', () => {
  it('masks a long letters-and-digits value after key, token, secret or password, keeping the word', () => {
    expect(redactText('api_key=Zx9QmT3vLp8RwK2nYh5s')).toBe(`api_key=${REDACTED}`);
    expect(redactText('{"token": "abcdefgh12345678ijkl"}')).toBe(`{"token": "${REDACTED}"}`);
    expect(redactText('client_secret: 0a1b2c3d4e5f6a7b8c9d')).toBe(`client_secret: ${REDACTED}`);
    expect(redactText('token Zx9QmT3vLp8RwK2nYh5s expired')).toBe(`token ${REDACTED} expired`);
    expect(redactText('Driver={x};Server=db;PWD=MyS3cretPassw0rd12;')).toBe(`Driver={x};Server=db;PWD=${REDACTED};`);
  });

  it('masks a JWT inside a longer run and a credential after a lowercase scheme', () => {
    expect(redactText('cookie session-eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U;')).toBe(`cookie session-${REDACTED};`);
    expect(redactText('authorization: basic dXNlcjpwYXNzd29yZA==')).toBe(`authorization: basic ${REDACTED}`);
    expect(redactText('authorization: bearer abcDEF123456')).toBe(`authorization: bearer ${REDACTED}`);
  });

  it('leaves ordinary words and numbers after those words alone', () => {
    for (const text of [
      'max_tokens: 4096',
      'the token expired',
      'key: short1',
      'password: correcthorsebatterystaple',
      'requires basic authentication',
      '$ pwd\n/home/runner/work2024/project',
      'idempotency key 550e8400-e29b-41d4-a716-446655440000',
      'unknown key user_profile_2024_v2',
      'content-disposition: filename="token 2024report_final_v2.pdf"',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });

  it('masks a JWT', () => {
    expect(redactText('id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U done')).toBe(`id ${REDACTED} done`);
  });

  it('can be turned off, configured secrets still removed', () => {
    expect(redactText('api_key=Zx9QmT3vLp8RwK2nYh5s hunter22', ['hunter22'], { patterns: false })).toBe(`api_key=Zx9QmT3vLp8RwK2nYh5s ${REDACTED}`);
  });
});

describe('redaction of hostile text', () => {
  // Every pattern must stay linear: remote text reaches redactText before anything truncates it.
  const MB = 1024 * 1024;
  it.each([
    ['"-eyJ" repeated', '-eyJ'.repeat(MB / 4)],
    ['"eyJ" with dots but no third part', 'eyJaaaaaaaaa.'.repeat(MB / 13)],
    ['"eyJ" runs split by single dots', `${'-eyJ'.repeat(MB / 8)}.${'-eyJ'.repeat(MB / 8)}`],
    ['"token " with long non-token values', 'token aaaaaaaaaaaaaaaaa.'.repeat(MB / 24)],
    ['"Bearer " repeated', 'Bearer '.repeat(MB / 7)],
    ['"Basic " repeated', 'Basic '.repeat(MB / 6)],
    ['"sk-" repeated', '-sk-'.repeat(MB / 4)],
    ['"key=" repeated', 'key='.repeat(MB / 4)],
    ['"key:" then spaces', `key:${' '.repeat(MB)}`],
    ['"token: " with short values', 'token: a1 '.repeat(MB / 10)],
    ['one long token run', 'a1'.repeat(MB / 2)],
    ['escaped quotes', '\\"'.repeat(MB / 3)],
    ['"_KEY=" inside names', 'A_KEY=x_'.repeat(MB / 8)],
    ['"a://x:" then a long password without "@"', `a://x:${'y'.repeat(MB)}`],
    ['"a://x:y" repeated', 'a://x:y'.repeat(MB / 7)],
    ['schemes with users and no passwords', 'ab+c://user/'.repeat(MB / 12)],
    ['long user infos without "@"', `a://${'y'.repeat(300)} `.repeat(MB / 305)],
    ['one long user info, "@" at its very end', `a://${'y'.repeat(MB)}@`],
  ])('redacts 1 MB of %s in well under a second', (_label, text) => {
    const started = performance.now();
    redactText(text, ['configured-secret-0123']);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('redactHeaders', () => {
  it('replaces credential-named headers and redacts every other value by its content', () => {
    const token = 'tok-0123456789abcdefXYZ';
    const headers = new Headers({
      'www-authenticate': `Bearer error_description="token ${token} expired"`,
      'x-debug': `received Bearer ${token}`,
      'set-cookie': 'session=abc',
      'content-type': 'application/json',
    });
    const copy = redactHeaders(headers, [token]);
    expect(JSON.stringify(copy)).not.toContain(token);
    expect(copy['set-cookie']).toBe(REDACTED);
    expect(copy['content-type']).toBe('application/json');
    expect(copy['x-debug']).toBe(`received Bearer ${REDACTED}`);
  });
});

describe('removeSecrets over object keys', () => {
  it('replaces a secret in a key, keeping order and the values, and returns the input itself when nothing holds one', () => {
    const secret = 'key-PLANTED-0123456789';
    const value = { first: 1, [`x-${secret}`]: { [secret]: 'deep' }, last: [{ [secret]: secret }] };
    const clean = removeSecrets(value, [secret]);
    expect(JSON.stringify(clean)).not.toContain(secret);
    expect(Object.keys(clean)).toEqual(['first', 'x-[REDACTED]', 'last']);
    expect(clean).toEqual({ first: 1, 'x-[REDACTED]': { '[REDACTED]': 'deep' }, last: [{ '[REDACTED]': '[REDACTED]' }] });
    const untouched = { a: { b: [1, 'two'] } };
    expect(removeSecrets(untouched, [secret])).toBe(untouched);
    expect(value).toHaveProperty(`x-${secret}`); // the input is not mutated
  });
});

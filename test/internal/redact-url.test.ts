// A URL as it may be kept and shown: every credential masked whatever its position (user info, path segment, query
// value, fragment), configured or recognised by its shape; ordinary ids kept; the circuit name built from it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, urlView } from '../../src/internal/redact.js';
import { dependencyOf } from '../../src/resilience/guard.js';

/** The URL as shown. */
const shown = (url: string, secrets?: readonly string[]) => urlView(url, secrets).url;

/** Token-shaped: found without configuration. */
const TOKEN = 'a9Fq3Zt7Lm2Xc8Vb4Nk6';
/** Not token-shaped (letters only): found only when configured. */
const WORDS = 'plainwordsecretvalue';

describe('urlView masks a credential in every position', () => {
  const positions: ReadonlyArray<[string, (value: string) => string]> = [
    ['a path segment', (value) => `https://mcp.example/mcp/${value}/sse`],
    ['a query value', (value) => `https://mcp.example/mcp?session=1&t=${value}`],
    ['a query value under a credential key', (value) => `https://mcp.example/mcp?api_key=${value}`],
    ['a fragment', (value) => `https://mcp.example/mcp#${value}`],
    ['a fragment parameter', (value) => `https://mcp.example/mcp#access_token=${value}`],
    ['the password of the user info', (value) => `https://user:${value}@mcp.example/mcp`],
    ['the user of the user info', (value) => `https://${value}@mcp.example/mcp`],
  ];

  describe.each(positions)('in %s', (_position, place) => {
    it('masks a token-shaped value without configuration', () => {
      const view = urlView(place(TOKEN));
      expect(view.url).not.toContain(TOKEN);
      expect(view.url).toContain(REDACTED);
      expect(dependencyOf(view)).not.toContain(TOKEN);
    });

    it.each([
      ['as is', WORDS],
      ['URL-encoded', encodeURIComponent(`${WORDS}/x y`)],
      ['base64', btoa(WORDS)],
    ])('masks a configured secret sent %s', (_form, planted) => {
      const view = urlView(place(planted), [WORDS, `${WORDS}/x y`]);
      for (const needle of [WORDS, encodeURIComponent(WORDS), btoa(WORDS).slice(0, 20)]) {
        expect(view.url).not.toContain(needle);
        expect(dependencyOf(view)).not.toContain(needle);
      }
    });
  });

  it('masks the whole user info, a plain user name and a short password included', () => {
    expect(shown('https://admin:hunter2@api.weather.test:8080/v1')).toBe(`https://${REDACTED}@api.weather.test:8080/v1`);
    expect(shown('//admin:hunter2@api.weather.test/v1')).toBe(`//${REDACTED}@api.weather.test/v1`);
  });

  it('masks values under credential-naming query keys, whatever their shape, and keeps the others', () => {
    const url = 'https://api.weather.test/v1/forecast?city=Oslo&api_key=k1&sig=s&X-Amz-Signature=abc&X-Amz-Security-Token=t&code=c&key=x&api-version=2024-06-01';
    expect(shown(url)).toBe(
      `https://api.weather.test/v1/forecast?city=Oslo&api_key=${REDACTED}&sig=${REDACTED}&X-Amz-Signature=${REDACTED}&X-Amz-Security-Token=${REDACTED}&code=${REDACTED}&key=${REDACTED}&api-version=2024-06-01`,
    );
  });

  it('masks credential shapes in a path: provider keys, JWTs, long mixed tokens, hex keys', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXBhcnQ';
    for (const token of ['sk-proj-AbCdEf0123456789xyz', jwt, TOKEN, '0123456789abcdef0123456789abcdef']) {
      expect(shown(`https://api.test/keys/${token}/usage`)).toBe(`https://api.test/keys/${REDACTED}/usage`);
    }
  });

  it('masks a configured secret in the host too (the view, the origin and the circuit name)', () => {
    const view = urlView(`https://${WORDS}.tunnel.example/mcp`, [WORDS]);
    expect(view.url).toBe(`https://${REDACTED}.tunnel.example/mcp`);
    expect(dependencyOf(view)).toBe(`https://${REDACTED}.tunnel.example/mcp`);
  });
});

describe('urlView keeps what debugging needs', () => {
  it.each([
    'https://api.openai.com/v1/chat/completions',
    'https://agent.example/a2a/tasks/3f2b8c1e-9d4a-4b7e-8f00-123456789abc',
    'https://bedrock.example/model/anthropic.claude-3-5-sonnet-20241022-v2:0/invoke',
    'https://example.openai.azure.com/openai/deployments/gpt-4o-mini/chat/completions?api-version=2024-06-01',
    'https://api.weather.test/v1/forecast?city=Oslo&days=3#section-2',
    'https://docs.example/.well-known/agent-card.json',
  ])('keeps %s as it is', (url) => {
    expect(shown(url)).toBe(url);
    expect(urlView(url).hidden).toEqual([]);
  });

  it('reads a relative or unparsable URL as text and never throws', () => {
    expect(shown('/v1/forecast?api_key=SECRET#frag')).toBe(`/v1/forecast?api_key=${REDACTED}#frag`);
    expect(shown(`/keys/${TOKEN}/usage?x=1`)).toBe(`/keys/${REDACTED}/usage?x=1`);
    expect(shown('::not a url::')).toBe('::not a url::');
    expect(shown('')).toBe('');
    expect(shown('https://%zz/a%/b?%=%#%')).toBe('https://%zz/a%/b?%=%#%');
  });

  it('is stable: a shown URL shown again is the same text', () => {
    for (const url of [`https://u:p@h.test/mcp/${TOKEN}/sse?api_key=x#t=${TOKEN}`, `https://h.test/${WORDS}`]) {
      const once = shown(url, [WORDS]);
      expect(shown(once, [WORDS])).toBe(once);
    }
  });
});

describe('what urlView hides', () => {
  it('lists the raw parts masked by position or shape, as sent and decoded, so text quoting the raw URL loses them too', () => {
    const encoded = `${TOKEN}%2Fx`;
    const view = urlView(`https://x-access-token:${TOKEN}@h.test/mcp/${encoded}/sse?sig=shortsig1`);
    expect(view.hidden).toEqual(expect.arrayContaining([TOKEN, encoded, `${TOKEN}/x`, 'shortsig1']));
  });

  it('leaves out short parts and plain user names, which would match ordinary words; a password is always hidden', () => {
    expect(urlView('https://admin:hunter2@h.test/v1?key=abc').hidden).toEqual(['hunter2']);
    expect(urlView('https://:hunter2@h.test/v1').hidden).toEqual(['hunter2']);
    expect(urlView('https://gw-tok-42@h.test/v1').hidden).toEqual(['gw-tok-42']);
    expect(urlView('https://admin@h.test/v1').hidden).toEqual([]);
  });
});

describe('dependencyOf: the circuit name', () => {
  it('is the shown origin and path, without user info, query, fragment or trailing slash', () => {
    expect(dependencyOf(urlView(`https://u:p@mcp.example/mcp/${TOKEN}/sse/?api_key=k#f`))).toBe(`https://mcp.example/mcp/${REDACTED}/sse`);
  });

  it('is the same for two URLs that differ only by the credential: one circuit per server', () => {
    const first = dependencyOf(urlView(`https://mcp.example/mcp/${TOKEN}/sse`));
    const second = dependencyOf(urlView('https://mcp.example/mcp/Zz9Yy8Xx7Ww6Vv5Uu4Tt/sse'));
    expect(first).toBe(second);
  });
});

describe('urlView on any secret (property)', () => {
  const secret = fc.string({ minLength: 4, maxLength: 24, unit: 'binary' }).filter((value) => !REDACTED.includes(value) && value.trim() === value && value.trim().length >= 4);
  /** Generated tokens: a run of 16 or more letters and digits mixing both, with base64url characters around it. */
  const token = fc
    .tuple(fc.stringMatching(/^[A-Za-z0-9_-]{0,10}$/), fc.stringMatching(/^[A-Za-z]{1,8}[0-9][A-Za-z0-9]{14,30}$/), fc.stringMatching(/^[A-Za-z0-9_-]{0,10}$/))
    .map((parts) => parts.join(''));
  const place = fc.constantFrom<(value: string) => string>(
    (value) => `https://h.test/a/${value}/b`,
    (value) => `https://h.test/a?q=${value}`,
    (value) => `https://h.test/a#${value}`,
    (value) => `https://u:${value}@h.test/a`,
  );

  it('never shows a configured secret, in any form, wherever it is planted', () => {
    fc.assert(
      fc.property(secret, place, (planted, at) => {
        const view = urlView(at(encodeURIComponent(planted)), [planted]);
        for (const text of [view.url, dependencyOf(view)]) {
          expect(text).not.toContain(planted);
          if (encodeURIComponent(planted).length >= 4) expect(text).not.toContain(encodeURIComponent(planted));
        }
      }),
      { seed: 2026, numRuns: 300 },
    );
  });

  it('never shows a token-shaped value, unconfigured, wherever it is planted', () => {
    fc.assert(
      fc.property(token, place, (planted, at) => {
        const view = urlView(at(planted));
        expect(view.url).not.toContain(planted);
        expect(dependencyOf(view)).not.toContain(planted);
      }),
      { seed: 2026, numRuns: 300 },
    );
  });

  it('never throws and is linear on hostile input (8× the input costs far less than 64× the time)', () => {
    const hostile: Array<(n: number) => string> = [(n) => '/'.repeat(2 * n), (n) => `https://h/${'a1'.repeat(n)}`, (n) => `https://h/?${'&='.repeat(n)}`, (n) => `https://${'@'.repeat(n)}h/`, (n) => '%'.repeat(n)];
    // The best of three runs, so a loaded machine's pauses do not count; the ratio, not a time, is the claim.
    const time = (url: string): number => {
      let best = Infinity;
      for (let run = 0; run < 3; run++) {
        const started = performance.now();
        expect(() => urlView(url, ['secret'])).not.toThrow();
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    for (const make of hostile) {
      const small = time(make(12_500));
      const large = time(make(100_000));
      expect(large, make(8)).toBeLessThan(small * 24 + 25);
    }
  });
});

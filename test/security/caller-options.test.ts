// `allowedHosts` and `allowedOrigins` of every fetch handler we ship: checked at creation (a ConfigError naming each bad
// entry), the refusal sent before the request body is read, and the caller's Host or Origin echoed bounded and with
// credentials masked.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import type { CallerOptions } from '../../src/internal/caller-check.js';
import { SUBJECTS } from './caller-matrix.js';

function problemsOf(create: () => unknown): string[] {
  try {
    create();
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return [...(error as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

describe.each(SUBJECTS)('$name: allowedHosts and allowedOrigins', (subject) => {
  it('refuses entries that are not host names or origins, naming each one in one ConfigError', () => {
    const problems = problemsOf(() =>
      subject.create({
        allowedHosts: ['https://api.example.com', 'api.example.com/mcp', '', 'user@api.example.com', 'api example', 'api.example.com:99999', 42 as unknown as string, '*'],
        allowedOrigins: ['app.example', 'https://app.example/path', 'https://user@app.example', 'https://app.example?x=1', 7 as unknown as string],
      }),
    );
    for (const index of [0, 1, 2, 3, 4, 5, 6]) expect(problems.some((problem) => problem.startsWith(`allowedHosts[${index}] must be a host name`))).toBe(true);
    for (const index of [0, 1, 2, 3, 4]) expect(problems.some((problem) => problem.startsWith(`allowedOrigins[${index}] must be an origin`))).toBe(true);
    expect(problems.join('\n')).not.toContain('allowedHosts[7]');
  });

  it.each([[{ allowedHosts: 'api.example.com' }], [{ allowedOrigins: {} }], [{ allowedHosts: null }]])('refuses %j', (options) => {
    expect(problemsOf(() => subject.create(options as unknown as CallerOptions)).join('\n')).toMatch(/must be an array of strings or '\*'/);
  });

  it('accepts names with ports, IP literals, a trailing dot, upper case, and origins of any scheme', async () => {
    const handler = subject.create({
      allowedHosts: ['API.example.com.', '10.0.0.5:8080', '[2001:db8::1]:3000'],
      allowedOrigins: ['https://app.example', 'http://localhost:5173', 'chrome-extension://abcdefghijklmnop'],
    });
    const probe = subject.probes[0]!;
    const ask = (host: string, origin?: string) =>
      handler(new Request(`http://${host}${probe.path}`, { method: probe.method, headers: { ...probe.headers, ...(origin ? { origin } : {}) }, ...(probe.body ? { body: probe.body } : {}) }));
    for (const host of ['api.example.com', '10.0.0.5:8080', '[2001:db8::1]:3000']) expect((await ask(host)).status, host).toBe(200);
    expect((await ask('10.0.0.5:8081')).status).toBe(421);
    expect((await ask('api.example.com', 'chrome-extension://abcdefghijklmnop')).status).toBe(200);
    expect((await ask('api.example.com', 'chrome-extension://other')).status).toBe(403);
  });

  it('refuses before it reads the request body: a body that never ends is never pulled', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({ pull: () => void pulls++ }, { highWaterMark: 0 });
    const handler = subject.create({});
    const response = await handler(new Request('http://rebind.attacker.example/', { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit));
    expect(response.status).toBe(421);
    expect(pulls).toBe(0);
  });

  it('echoes the Host and the Origin bounded to 200 characters, credentials masked', async () => {
    const handler = subject.create({});
    const long = `${'a'.repeat(60)}.`.repeat(80) + 'example';
    const tooLong = (await (await handler(new Request(`http://${long}/`))).json()) as { error: { message: string } };
    expect(tooLong.error.message).toContain(`"${'a'.repeat(60)}.`);
    expect(tooLong.error.message).toContain('…');
    expect(tooLong.error.message.length).toBeLessThan(600);
    const key = 'sk-live-0123456789abcdefABCDEF';
    const hostKey = (await (await handler(new Request(`http://${key.toLowerCase()}.example/`))).json()) as { error: { message: string } };
    expect(hostKey.error.message).not.toContain(key.toLowerCase());
    expect(hostKey.error.message).toContain('[REDACTED]');
    const originKey = (await (await handler(new Request('http://localhost/', { headers: { origin: `https://${key}.example` } }))).json()) as { error: { message: string } };
    expect(originKey.error.message).not.toContain(key);
    expect(originKey.error.message).toContain('[REDACTED]');
    const originLong = (await (await handler(new Request('http://localhost/', { headers: { origin: `https://${long}` } }))).json()) as { error: { message: string } };
    expect(originLong.error.message.length).toBeLessThan(600);
  });
});

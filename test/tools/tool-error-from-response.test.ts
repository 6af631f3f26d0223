import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { APIFailure } from '../../src/tools/api-failure.js';
import { AuthenticationError } from '../../src/tools/authentication-error.js';
import { DataNotFoundError } from '../../src/tools/data-not-found-error.js';
import { InputValidationError } from '../../src/tools/input-validation-error.js';
import { NetworkError } from '../../src/tools/network-error.js';
import { PermissionError } from '../../src/tools/permission-error.js';
import { RateLimitError } from '../../src/tools/rate-limit-error.js';
import { TimeoutError } from '../../src/tools/timeout-error.js';
import { toolErrorFromFetchError, toolErrorFromResponse } from '../../src/tools/tool-error-from-response.js';
import { ToolFailure } from '../../src/tools/tool-failure.js';
import { dripBody } from '../helpers/async.js';

const BASE = 'https://api.weather.test';
/** Sent as `Authorization: Bearer …`; token-shaped, so it must be masked even when not configured. */
const BEARER_KEY = 'sk-test-SECRET0123456789abcdef';
/** Sent as `?api_key=…`; the URL must lose this value (the key name stays, the value is masked). */
const QUERY_KEY = 'SECRET-query-value-42';
/** Not token-shaped: only the `secrets` option can keep it out. */
const CONFIGURED_SECRET = 'wx-plain-secret-77';
const SECRETS = [BEARER_KEY, QUERY_KEY, CONFIGURED_SECRET];

const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

/** Calls the Weather API the way a tool would: bearer header plus a key in the query string. */
function callWeather(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${BASE}${path}?city=Oslo&api_key=${QUERY_KEY}`, {
    ...init,
    headers: { Authorization: `Bearer ${BEARER_KEY}`, ...init.headers },
  });
}

function expectNoSecrets(failure: ToolFailure, secrets: readonly string[] = SECRETS): void {
  const info = JSON.stringify(failure.toErrorInfo());
  for (const secret of secrets) {
    expect(info).not.toContain(secret);
    expect(failure.message).not.toContain(secret);
    expect(JSON.stringify(failure)).not.toContain(secret);
  }
}

describe('toolErrorFromResponse', () => {
  describe('maps each status to the standard tool failure', () => {
    const PROVIDER_MESSAGE = 'The city parameter is not supported on this plan';
    const cases: Array<{
      status: number;
      Class: new (...args: never[]) => ToolFailure;
      type: string;
      retryable: boolean;
      message: string;
      suggestion: string;
    }> = [
      {
        status: 400,
        Class: InputValidationError,
        type: 'InputValidationError',
        retryable: false,
        message: `The Weather API rejected the request as invalid (400 Bad Request): ${PROVIDER_MESSAGE}`,
        suggestion: 'Check the arguments against the tool description and call again with corrected values.',
      },
      {
        status: 401,
        Class: AuthenticationError,
        type: 'AuthenticationError',
        retryable: false,
        message: 'Access to the Weather API was denied (401 Unauthorized). The provided API key may be invalid or expired.',
        suggestion: AuthenticationError.defaultSuggestion,
      },
      {
        status: 403,
        Class: PermissionError,
        type: 'PermissionError',
        retryable: false,
        message: `The Weather API refused access to this resource (403 Forbidden): ${PROVIDER_MESSAGE}`,
        suggestion: PermissionError.defaultSuggestion,
      },
      {
        status: 404,
        Class: DataNotFoundError,
        type: 'DataNotFoundError',
        retryable: false,
        message: `The resource requested at '/v1/status/404' was not found (404 Not Found).`,
        suggestion: DataNotFoundError.defaultSuggestion,
      },
      {
        status: 408,
        Class: TimeoutError,
        type: 'TimeoutError',
        retryable: true,
        message: 'The Weather API timed out waiting for the request (408 Request Timeout).',
        suggestion: TimeoutError.defaultSuggestion,
      },
      {
        status: 409,
        Class: APIFailure,
        type: 'APIFailure',
        retryable: true,
        message: `The Weather API reported a conflict (409 Conflict): ${PROVIDER_MESSAGE}`,
        suggestion: APIFailure.defaultSuggestion,
      },
      {
        status: 422,
        Class: InputValidationError,
        type: 'InputValidationError',
        retryable: false,
        message: `The Weather API rejected the request as invalid (422 Unprocessable Entity): ${PROVIDER_MESSAGE}`,
        suggestion: 'Check the arguments against the tool description and call again with corrected values.',
      },
      {
        status: 429,
        Class: RateLimitError,
        type: 'RateLimitError',
        retryable: true,
        message: `The Weather API rate limit was reached (429 Too Many Requests): ${PROVIDER_MESSAGE}`,
        suggestion: RateLimitError.defaultSuggestion,
      },
      {
        status: 500,
        Class: APIFailure,
        type: 'APIFailure',
        retryable: true,
        message: `The Weather API failed with 500 Internal Server Error: ${PROVIDER_MESSAGE}`,
        suggestion: APIFailure.defaultSuggestion,
      },
      {
        status: 501,
        Class: APIFailure,
        type: 'APIFailure',
        retryable: false,
        message: `The Weather API failed with 501 Not Implemented: ${PROVIDER_MESSAGE}`,
        suggestion: 'Do not retry this request unchanged; continue without this tool or tell the user the service failed.',
      },
      {
        status: 502,
        Class: APIFailure,
        type: 'APIFailure',
        retryable: true,
        message: `The Weather API failed with 502 Bad Gateway: ${PROVIDER_MESSAGE}`,
        suggestion: APIFailure.defaultSuggestion,
      },
      {
        status: 503,
        Class: APIFailure,
        type: 'APIFailure',
        retryable: true,
        message: `The Weather API failed with 503 Service Unavailable: ${PROVIDER_MESSAGE}`,
        suggestion: APIFailure.defaultSuggestion,
      },
      {
        status: 504,
        Class: APIFailure,
        type: 'APIFailure',
        retryable: true,
        message: `The Weather API failed with 504 Gateway Timeout: ${PROVIDER_MESSAGE}`,
        suggestion: APIFailure.defaultSuggestion,
      },
      {
        status: 418,
        Class: APIFailure,
        type: 'APIFailure',
        retryable: false,
        message: `The Weather API answered 418: ${PROVIDER_MESSAGE}`,
        suggestion: 'Do not retry this request unchanged; continue without this tool or tell the user the service failed.',
      },
    ];

    it.each(cases)('maps $status to $type', async ({ status, Class, type, retryable, message, suggestion }) => {
      server.use(
        http.get(`${BASE}/v1/status/:code`, ({ params }) =>
          HttpResponse.json(
            { error: { message: PROVIDER_MESSAGE, type: 'invalid_request_error', code: 'plan_restricted' } },
            { status: Number(params.code), headers: { 'x-request-id': 'req_abc123' } },
          ),
        ),
      );
      const response = await callWeather(`/v1/status/${status}`);
      expect(response.status).toBe(status);

      const failure = await toolErrorFromResponse(response, { service: 'Weather API', secrets: SECRETS });

      expect(failure).toBeInstanceOf(Class);
      expect(failure).toBeInstanceOf(ToolFailure);
      expect(failure.type).toBe(type);
      expect(failure.name).toBe(type);
      expect(failure.retryable).toBe(retryable);
      expect(failure.message).toBe(message);
      expect(failure.retryAfterMs).toBeUndefined();
      expect(failure.toErrorInfo()).toEqual({
        type,
        message,
        context: {
          service: 'Weather API',
          status,
          url: `/v1/status/${status}`,
          requestId: 'req_abc123',
          providerMessage: PROVIDER_MESSAGE,
          providerCode: 'plan_restricted',
        },
        suggestion,
      });
      expect(JSON.parse(JSON.stringify(failure))).toEqual(failure.toErrorInfo());
    });

    it('keeps the status and the redacted body on the developer-only cause', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.text(`broken, key ${CONFIGURED_SECRET}`, { status: 500 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API', secrets: SECRETS });
      expect(failure.cause).toEqual({ status: 500, body: 'broken, key [REDACTED]', url: `${BASE}/v1/forecast?city=Oslo&api_key=[REDACTED]` });
      expect(failure.toErrorInfo()).not.toHaveProperty('cause');
    });
  });

  describe('names the service', () => {
    it('calls it "external API" when no service is given', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => new HttpResponse(null, { status: 401 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'));
      expect(failure.message).toBe('Access to the external API was denied (401 Unauthorized). The provided API key may be invalid or expired.');
      expect(failure.context?.service).toBe('external');
    });

    it('appends "API" to a service name that lacks it', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => new HttpResponse(null, { status: 401 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather' });
      expect(failure.message).toMatch(/^Access to the Weather API was denied/);
      expect(failure.context?.service).toBe('Weather');
    });
  });

  describe('picks up the provider message', () => {
    it('reads the OpenAI shape {"error":{"message","code"}}', async () => {
      server.use(
        http.get(`${BASE}/v1/forecast`, () =>
          HttpResponse.json({ error: { message: 'City is required.', type: 'invalid_request_error', code: 'missing_city' } }, { status: 400 }),
        ),
      );
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure.message).toBe('The Weather API rejected the request as invalid (400 Bad Request): City is required.');
      expect(failure.context).toMatchObject({ providerMessage: 'City is required.', providerCode: 'missing_city' });
    });

    it('reads a plain {"message"} body', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.json({ message: 'Unknown city: Atlantis' }, { status: 422 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure.message).toBe('The Weather API rejected the request as invalid (422 Unprocessable Entity): Unknown city: Atlantis');
      expect(failure.context?.providerMessage).toBe('Unknown city: Atlantis');
      expect(failure.context).not.toHaveProperty('providerCode');
    });

    it('reads the RFC 7807 detail of a problem+json body', async () => {
      server.use(
        http.get(
          `${BASE}/v1/forecast`,
          () =>
            new HttpResponse(
              JSON.stringify({ type: 'https://api.weather.test/problems/plan', title: 'Plan limit', status: 403, detail: 'Hourly data needs the Pro plan.' }),
              { status: 403, headers: { 'content-type': 'application/problem+json' } },
            ),
        ),
      );
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure.message).toBe('The Weather API refused access to this resource (403 Forbidden): Hourly data needs the Pro plan.');
    });

    it('reads the message of a numeric code and keeps the code as a string', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.json({ error: { message: 'Overloaded', code: 529 } }, { status: 503 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure.context).toMatchObject({ providerMessage: 'Overloaded', providerCode: '529' });
    });

    it('uses a plain text body as the message', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.text('  upstream database unavailable \n', { status: 502 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure.message).toBe('The Weather API failed with 502 Bad Gateway: upstream database unavailable');
    });

    it('does not paste an HTML error page into the message', async () => {
      server.use(
        http.get(`${BASE}/v1/forecast`, () =>
          HttpResponse.html('<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>', { status: 502 }),
        ),
      );
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure.message).toBe('The Weather API failed with 502 Bad Gateway.');
      expect(failure.context).not.toHaveProperty('providerMessage');
      expect(JSON.stringify(failure.toErrorInfo())).not.toContain('<');
    });

    it('ends the message with a full stop when the body is empty', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => new HttpResponse(null, { status: 500 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure.message).toBe('The Weather API failed with 500 Internal Server Error.');
      expect(failure.context).toEqual({ service: 'Weather API', status: 500, url: '/v1/forecast' });
    });

    it('shortens a long provider message to 500 characters', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.json({ message: 'x'.repeat(5000) }, { status: 400 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(String(failure.context?.providerMessage)).toHaveLength(500);
      expect(String(failure.context?.providerMessage).endsWith('…')).toBe(true);
    });
  });

  describe('rate limits and Retry-After', () => {
    it('gives a 429 without Retry-After no retryAfterMs', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.json({ error: { message: 'Slow down' } }, { status: 429 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure).toBeInstanceOf(RateLimitError);
      expect(failure.retryable).toBe(true);
      expect(failure.retryAfterMs).toBeUndefined();
      expect(failure.context).not.toHaveProperty('retryAfterMs');
      expect(failure.suggestion).toBe(RateLimitError.defaultSuggestion);
    });

    it('reads Retry-After delta-seconds on a 429', async () => {
      server.use(
        http.get(`${BASE}/v1/forecast`, () => HttpResponse.json({ error: { message: 'Slow down' } }, { status: 429, headers: { 'Retry-After': '30' } })),
      );
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure).toBeInstanceOf(RateLimitError);
      expect(failure.retryAfterMs).toBe(30_000);
      expect(failure.toErrorInfo()).toEqual({
        type: 'RateLimitError',
        message: 'The Weather API rate limit was reached (429 Too Many Requests): Slow down',
        context: { service: 'Weather API', status: 429, url: '/v1/forecast', providerMessage: 'Slow down', retryAfterMs: 30_000 },
        suggestion: 'Wait at least 30 seconds before calling this tool again, and make fewer calls.',
      });
    });

    it('reads a Retry-After HTTP-date on a 429 relative to the current time', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
      server.use(
        http.get(`${BASE}/v1/forecast`, () => new HttpResponse(null, { status: 429, headers: { 'Retry-After': 'Tue, 01 Jan 2030 00:01:30 GMT' } })),
      );
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure.retryAfterMs).toBe(90_000);
      expect(failure.context?.retryAfterMs).toBe(90_000);
      expect(failure.suggestion).toBe('Wait at least 90 seconds before calling this tool again, and make fewer calls.');
    });

    it('gives 0 for a Retry-After HTTP-date already in the past', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
      server.use(
        http.get(`${BASE}/v1/forecast`, () => new HttpResponse(null, { status: 429, headers: { 'Retry-After': 'Mon, 31 Dec 2029 23:00:00 GMT' } })),
      );
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure.retryAfterMs).toBe(0);
    });

    it('prefers retry-after-ms over Retry-After on a 429', async () => {
      server.use(
        http.get(`${BASE}/v1/forecast`, () => new HttpResponse(null, { status: 429, headers: { 'retry-after-ms': '1500', 'Retry-After': '60' } })),
      );
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure.retryAfterMs).toBe(1500);
    });

    it('ignores an unparsable Retry-After on a 429', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => new HttpResponse(null, { status: 429, headers: { 'Retry-After': 'soon' } })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure.retryAfterMs).toBeUndefined();
    });

    it('keeps Retry-After on a retryable 503, and tells the model the wait as a 429 does', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => new HttpResponse(null, { status: 503, headers: { 'Retry-After': '120' } })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure).toBeInstanceOf(APIFailure);
      expect(failure.retryable).toBe(true);
      expect(failure.retryAfterMs).toBe(120_000);
      expect(failure.toErrorInfo()).toMatchObject({ context: { retryAfterMs: 120_000 }, suggestion: 'The service asked to wait 120 seconds; call this tool again after that at the earliest, or continue without it.' });
    });

    it('ignores Retry-After on a non-retryable 501', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => new HttpResponse(null, { status: 501, headers: { 'Retry-After': '120' } })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure.retryable).toBe(false);
      expect(failure.retryAfterMs).toBeUndefined();
    });
  });

  describe('keeps secrets out', () => {
    const STATUSES = [400, 401, 403, 404, 408, 409, 418, 422, 429, 500, 501, 502, 503, 504];

    /** A careless provider that echoes everything it received. */
    function echoingHandler() {
      return http.get(`${BASE}/v1/echo/:code`, ({ request, params }) =>
        HttpResponse.json(
          {
            error: {
              message: `Incorrect API key provided: ${BEARER_KEY}. Got header "${request.headers.get('authorization')}" for ${request.url} (account key ${CONFIGURED_SECRET})`,
              code: 'invalid_api_key',
            },
          },
          { status: Number(params.code), headers: { 'Retry-After': '1' } },
        ),
      );
    }

    it.each(STATUSES)('leaks no secret from a %s response that echoes them', async (status) => {
      server.use(echoingHandler());
      const failure = await toolErrorFromResponse(await callWeather(`/v1/echo/${status}`), { service: 'Weather API', secrets: SECRETS });
      expectNoSecrets(failure);
      expect(JSON.stringify(failure.cause)).not.toContain(BEARER_KEY);
      expect(JSON.stringify(failure.cause)).not.toContain(QUERY_KEY);
      expect(JSON.stringify(failure.cause)).not.toContain(CONFIGURED_SECRET);
    });

    it('still says what the provider said, with the secrets masked', async () => {
      server.use(echoingHandler());
      const failure = await toolErrorFromResponse(await callWeather('/v1/echo/400'), { service: 'Weather API', secrets: SECRETS });
      expect(failure.message).toContain('Incorrect API key provided: [REDACTED].');
      expect(failure.message).toContain('Bearer [REDACTED]');
      expect(failure.message).toContain('account key [REDACTED]');
    });

    it('masks a bearer token and an sk- key echoed in the body even without configured secrets', async () => {
      server.use(
        http.get(`${BASE}/v1/forecast`, ({ request }) =>
          HttpResponse.text(`Incorrect API key provided: ${BEARER_KEY}; you sent ${request.headers.get('authorization')}`, { status: 401 }),
        ),
      );
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expectNoSecrets(failure, [BEARER_KEY]);
      expect(failure.context?.providerMessage).toBe('Incorrect API key provided: [REDACTED]; you sent Bearer [REDACTED]');
    });

    it('masks the api_key query value of the URL even without configured secrets, and shows the model no query', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => new HttpResponse(null, { status: 404 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expectNoSecrets(failure, [QUERY_KEY]);
      expect(JSON.stringify(failure.toErrorInfo())).not.toContain('api_key');
      expect(failure.message).toBe(`The resource requested at '/v1/forecast' was not found (404 Not Found).`);
      expect(failure.context?.url).toBe('/v1/forecast');
      expect((failure.cause as { url: string }).url).toBe(`${BASE}/v1/forecast?city=Oslo&api_key=[REDACTED]`);
    });

    it('removes a configured secret that is not token-shaped from a plain-text body', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.text(`key ${CONFIGURED_SECRET} is suspended`, { status: 403 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API', secrets: [CONFIGURED_SECRET] });
      expectNoSecrets(failure, [CONFIGURED_SECRET]);
      expect(failure.message).toBe('The Weather API refused access to this resource (403 Forbidden): key [REDACTED] is suspended');
    });

    // Regression guard (fixed bug): the URL is only stripped of userinfo/query/fragment; configured `secrets` are not applied to it, so an API
    // that carries the key in the path (Telegram-style `/bot<token>/…`) gets the key echoed in a 404 message and context.
    it('removes a configured secret that travels in the URL path', async () => {
      const pathToken = 'bot-123456-PATHSECRETtoken';
      server.use(http.get(`${BASE}/:token/forecast`, () => new HttpResponse(null, { status: 404 })));
      const failure = await toolErrorFromResponse(await fetch(`${BASE}/${pathToken}/forecast`), { service: 'Weather API', secrets: [pathToken] });
      expectNoSecrets(failure, [pathToken]);
    });
  });

  describe('keeps internal hosts and credential-shaped values from the model', () => {
    it('shows the model only the path of the URL by default, and the developer cause the whole URL', async () => {
      server.use(http.get('https://inventory.internal.corp:8443/v2/items/42', () => new HttpResponse(null, { status: 404 })));
      const failure = await toolErrorFromResponse(await fetch('https://inventory.internal.corp:8443/v2/items/42?token=x'), { service: 'Inventory API' });
      const modelFacing = JSON.stringify(failure.toErrorInfo());
      expect(modelFacing).not.toContain('inventory.internal.corp');
      expect(failure.context?.url).toBe('/v2/items/42');
      expect(failure.message).toBe("The resource requested at '/v2/items/42' was not found (404 Not Found).");
      expect((failure.cause as { url: string }).url).toBe('https://inventory.internal.corp:8443/v2/items/42?token=[REDACTED]');
    });

    it("shows the host when the tool author opts in with showURL: 'full', and nothing with showURL: false", async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => new HttpResponse(null, { status: 404 })));
      const full = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API', showURL: 'full' });
      expect(full.context?.url).toBe(`${BASE}/v1/forecast`);
      const none = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API', showURL: false });
      expect(none.context).not.toHaveProperty('url');
      expect(none.message).toBe('The resource requested from the Weather API was not found (404 Not Found).');
      expect((none.cause as { url: string }).url).toBe(`${BASE}/v1/forecast?city=Oslo&api_key=[REDACTED]`);
    });

    it('masks a credential-shaped value after "key" or "token" without configured secrets, unless redactCredentials is false', async () => {
      const leaked = 'Zx9QmT3vLp8RwK2nYh5sQa7B';
      server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.json({ error: { message: `invalid key=${leaked} (token: ${leaked})` } }, { status: 403 })));
      const masked = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(masked.context?.providerMessage).toBe('invalid key=[REDACTED] (token: [REDACTED])');
      expectNoSecrets(masked, [leaked]);
      const kept = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API', redactCredentials: false });
      expect(kept.context?.providerMessage).toBe(`invalid key=${leaked} (token: ${leaked})`);
    });

    it('removes the base64 and URL-encoded forms of a configured secret', async () => {
      const secret = 'wx-account-secret-0042';
      server.use(
        http.get(`${BASE}/v1/forecast`, () =>
          HttpResponse.json({ error: { message: `bad credentials ${btoa(secret)}, basic ${btoa(`user:${secret}`)}, sent ${encodeURIComponent(`${secret} `)}` } }, { status: 401 }),
        ),
      );
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API', secrets: [secret] });
      const everything = `${JSON.stringify(failure.toErrorInfo())}${JSON.stringify(failure.cause)}`;
      for (const form of [secret, btoa(secret), btoa(`user:${secret}`), encodeURIComponent(secret)]) expect(everything).not.toContain(form);
    });
  });

  describe('bounds the body read', () => {
    it('stops reading an error body that trickles bytes after bodyTimeoutMs, with what had arrived', async () => {
      const body = dripBody('{"error": {"message": "slow', () => ' ');
      server.use(http.get(`${BASE}/v1/forecast`, () => new HttpResponse(body, { status: 503 })));
      const started = Date.now();
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API', bodyTimeoutMs: 100 });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(failure).toBeInstanceOf(APIFailure);
      expect(failure.cause).toMatchObject({ status: 503, bodyTimedOut: true });
    });
  });

  describe('bounds the body read (size)', () => {
    it('reads a 10 MB error body only up to the bound', async () => {
      const huge = 'E'.repeat(10 * 1024 * 1024);
      server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.text(huge, { status: 500 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API' });
      expect(failure).toBeInstanceOf(APIFailure);
      expect(String(failure.context?.providerMessage).length).toBeLessThanOrEqual(500);
      expect((failure.cause as { body: string }).body.length).toBeLessThanOrEqual(1000);
    }, 5000);

    it('stops pulling from an endless body once maxBodyBytes are read', async () => {
      let pulledBytes = 0;
      const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
      server.use(
        http.get(`${BASE}/v1/forecast`, () => {
          const stream = new ReadableStream<Uint8Array>({
            pull(controller) {
              pulledBytes += chunk.byteLength;
              controller.enqueue(chunk);
            },
          });
          return new HttpResponse(stream, { status: 502 });
        }),
      );
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API', maxBodyBytes: 64 * 1024 });
      expect(failure).toBeInstanceOf(APIFailure);
      expect(pulledBytes).toBeLessThan(1024 * 1024);
    }, 5000);

    it('cuts the body at exactly maxBodyBytes', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.text('0123456789ABCDEF', { status: 500 })));
      const failure = await toolErrorFromResponse(await callWeather('/v1/forecast'), { service: 'Weather API', maxBodyBytes: 10 });
      expect(failure.context?.providerMessage).toBe('0123456789');
    });

    it('gives no provider message when the body was already read', async () => {
      server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.text('already consumed', { status: 500 })));
      const response = await callWeather('/v1/forecast');
      await response.text();
      const failure = await toolErrorFromResponse(response, { service: 'Weather API' });
      expect(failure.message).toBe('The Weather API failed with 500 Internal Server Error.');
    });
  });

  it('describes a 404 without a URL when the response has none', async () => {
    const failure = await toolErrorFromResponse(new Response(null, { status: 404 }), { service: 'Weather API' });
    expect(failure).toBeInstanceOf(DataNotFoundError);
    expect(failure.message).toBe('The resource requested from the Weather API was not found (404 Not Found).');
    expect(failure.context).toEqual({ service: 'Weather API', status: 404 });
  });
});

describe('toolErrorFromFetchError', () => {
  it('maps an msw network error to a retryable NetworkError', async () => {
    server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.error()));
    const error = await callWeather('/v1/forecast').then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(TypeError);
    const failure = toolErrorFromFetchError(error, { service: 'Weather API' });
    expect(failure).toBeInstanceOf(NetworkError);
    expect(failure.type).toBe('NetworkError');
    expect(failure.retryable).toBe(true);
    expect(failure.message).toMatch(/^The Weather API could not be reached because of a network problem \(.+\)\.$/);
    expect(failure.cause).toBe(error);
    expect(failure.toErrorInfo()).toEqual({
      type: 'NetworkError',
      message: failure.message,
      context: { service: 'Weather API' },
      suggestion: NetworkError.defaultSuggestion,
    });
  });

  // Regression guard (fixed bug): msw (like some runtimes) rejects with TypeError('Failed to fetch', {cause: <error Response>}). networkDetail
  // prefers any defined cause, and messageOf(Response) stringifies it to "{}", so the model reads
  // "... because of a network problem ({})." instead of the error's own message.
  it('explains an msw network error with the fetch error message rather than an empty object', async () => {
    server.use(http.get(`${BASE}/v1/forecast`, () => HttpResponse.error()));
    const error = await callWeather('/v1/forecast').then(
      () => undefined,
      (reason: unknown) => reason,
    );
    const failure = toolErrorFromFetchError(error, { service: 'Weather API' });
    expect(failure.message).toBe('The Weather API could not be reached because of a network problem (Failed to fetch).');
  });

  it('says the host name could not be resolved when the cause has code ENOTFOUND', () => {
    const cause = Object.assign(new Error('getaddrinfo ENOTFOUND api.weather.test'), { code: 'ENOTFOUND', hostname: 'api.weather.test' });
    const error = new TypeError('fetch failed', { cause });
    const failure = toolErrorFromFetchError(error, { service: 'Weather API' });
    expect(failure).toBeInstanceOf(NetworkError);
    expect(failure.retryable).toBe(true);
    expect(failure.message).toBe('The Weather API could not be reached: its host name could not be resolved.');
  });

  it('recognises ENOTFOUND from the code alone', () => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error('lookup failed'), { code: 'ENOTFOUND' }) });
    expect(toolErrorFromFetchError(error, { service: 'Weather API' }).message).toBe(
      'The Weather API could not be reached: its host name could not be resolved.',
    );
  });

  it('names the code and message of other connection failures', () => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    const failure = toolErrorFromFetchError(error, { service: 'Weather API' });
    expect(failure).toBeInstanceOf(NetworkError);
    expect(failure.message).toBe('The Weather API could not be reached because of a network problem (ECONNRESET: socket hang up).');
  });

  it('does not repeat a code already in the message', () => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' }) });
    expect(toolErrorFromFetchError(error, { service: 'Weather API' }).message).toBe(
      'The Weather API could not be reached because of a network problem (connect ECONNREFUSED 127.0.0.1:443).',
    );
  });

  it('removes configured secrets and token shapes from the error detail', () => {
    const error = new TypeError(`request to ${BASE}/v1?api_key=${QUERY_KEY} failed with Bearer ${BEARER_KEY}`);
    const failure = toolErrorFromFetchError(error, { service: 'Weather API', secrets: [QUERY_KEY] });
    expectNoSecrets(failure, [QUERY_KEY, BEARER_KEY]);
  });

  it('maps a TimeoutError DOMException to a retryable TimeoutError', () => {
    const error = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    const failure = toolErrorFromFetchError(error, { service: 'Weather API' });
    expect(failure).toBeInstanceOf(TimeoutError);
    expect(failure.retryable).toBe(true);
    expect(failure.toErrorInfo()).toEqual({
      type: 'TimeoutError',
      message: 'The request to the Weather API timed out.',
      context: { service: 'Weather API' },
      suggestion: TimeoutError.defaultSuggestion,
    });
    expect(failure.cause).toBe(error);
  });

  it('maps a real fetch timed out by AbortSignal.timeout to a TimeoutError', async () => {
    server.use(
      http.get(`${BASE}/v1/slow`, async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const error = await callWeather('/v1/slow', { signal: AbortSignal.timeout(20) }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    const failure = toolErrorFromFetchError(error, { service: 'Weather API' });
    expect(failure).toBeInstanceOf(TimeoutError);
  });

  it('maps an AbortError DOMException to a non-retryable APIFailure', () => {
    const error = new DOMException('This operation was aborted', 'AbortError');
    const failure = toolErrorFromFetchError(error, { service: 'Weather API' });
    expect(failure).toBeInstanceOf(APIFailure);
    expect(failure.type).toBe('APIFailure');
    expect(failure.retryable).toBe(false);
    expect(failure.message).toBe('The request to the Weather API was cancelled.');
    expect(failure.context).toEqual({ service: 'Weather API' });
  });

  it('maps a real fetch cancelled by its caller to a non-retryable APIFailure', async () => {
    server.use(
      http.get(`${BASE}/v1/slow`, async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    const pending = callWeather('/v1/slow', { signal: controller.signal });
    controller.abort();
    const error = await pending.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    const failure = toolErrorFromFetchError(error, { service: 'Weather API' });
    expect(failure).toBeInstanceOf(APIFailure);
    expect(failure.retryable).toBe(false);
  });

  it('calls the service "external API" when no service is given', () => {
    expect(toolErrorFromFetchError(new DOMException('t', 'TimeoutError')).message).toBe('The request to the external API timed out.');
  });

  it('handles a thrown non-Error value', () => {
    const failure = toolErrorFromFetchError('offline');
    expect(failure).toBeInstanceOf(NetworkError);
    expect(failure.message).toBe('The external API could not be reached because of a network problem (offline).');
  });
});

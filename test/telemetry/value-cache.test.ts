// Short attribute values are cleaned once per telemetry instance and remembered (model, tool and node names repeat on
// every span): a remembered value is the redacted one, a secret of one instance is never served to another, and past
// 512 values the memory starts afresh instead of growing.
import { describe, expect, it } from 'vitest';
import { exported, record } from './otel-sdk.js';

const SECRET = 'sk-live-PLANTED-cache-0123456789';

describe('the short-value memory', () => {
  it('serves only redacted values, per instance, bounded', () => {
    const withSecret = record({ secrets: [SECRET] });
    for (let round = 0; round < 3; round++) {
      for (let index = 0; index < 700; index++) {
        const span = withSecret.telemetry.startSpan(`op ${index}`, { attributes: { value: `${index} ${SECRET}`, same: SECRET } });
        span.end();
      }
    }
    for (const span of withSecret.spans()) expect(exported(span)).not.toContain(SECRET);
    expect(withSecret.spans()).toHaveLength(2_100);
    // Another instance knows nothing of the first one's secrets or memory: what it is told to keep, it keeps.
    const other = record();
    const span = other.telemetry.startSpan('plain', { attributes: { value: 'gpt-4.1' } });
    span.end();
    expect(other.span('plain').attributes.value).toBe('gpt-4.1');
  });
});

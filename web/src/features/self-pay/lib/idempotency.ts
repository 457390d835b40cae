// One idempotency key per set of card details: the same details sent again (after a timeout,
// a lost answer) carry the same key, so the processor answers the hold it placed rather than
// placing a second; changed details (another card after a decline) get a new key.

/** A random UUID; crypto.randomUUID exists only in secure contexts (HTTPS or localhost). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Hands out the key for a set of details: the last one while the details are the same, a new one when they change. */
export function idempotencyKeys(create: () => string = newIdempotencyKey) {
  let last: { details: string; key: string } | null = null;
  return (details: Record<string, string>): string => {
    const fingerprint = JSON.stringify(Object.entries(details).map(([k, v]) => [k, v.replace(/\s+/g, ' ').trim()]));
    if (last?.details !== fingerprint) last = { details: fingerprint, key: create() };
    return last.key;
  };
}

/**
 * The spec's WebSocket limit: about 20 connections per account per ten minutes, beyond which a
 * ten-minute cooldown applies. Counted per API process, as the spec's other limits ("Limits are
 * enforced per API process"); only admitted connections enter the window. Time comes in as an
 * argument.
 */
export type ConnectionAdmission = { admitted: true } | { admitted: false; retryAfterMs: number };

export class ConnectionWindow {
  private readonly opened = new Map<string, number[]>();
  private readonly cooldowns = new Map<string, number>();

  constructor(private readonly limits: { connectionsPerWindow: number; connectionWindowMs: number; cooldownMs: number }) {}

  admit(accountId: string, now: number): ConnectionAdmission {
    const until = this.cooldowns.get(accountId);
    if (until !== undefined) {
      if (now < until) return { admitted: false, retryAfterMs: until - now };
      this.cooldowns.delete(accountId);
    }
    const stamps = (this.opened.get(accountId) ?? []).filter((t) => t > now - this.limits.connectionWindowMs);
    if (stamps.length >= this.limits.connectionsPerWindow) {
      this.cooldowns.set(accountId, now + this.limits.cooldownMs);
      this.opened.delete(accountId);
      return { admitted: false, retryAfterMs: this.limits.cooldownMs };
    }
    stamps.push(now);
    this.opened.set(accountId, stamps);
    return { admitted: true };
  }
}

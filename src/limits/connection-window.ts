/**
 * The spec's WebSocket limit: about 20 connections per account per ten minutes, beyond which a
 * ten-minute cooldown applies. Held by the RateLimiter, so counted where the request windows are:
 * in a cluster with LIMIT_SCOPE=cluster once, by the primary, for all the HTTP workers. Only
 * admitted connections enter the window. Time comes in as an argument.
 */
export type ConnectionAdmission = { admitted: true } | { admitted: false; retryAfterMs: number };

export interface ConnectionLimits {
  connectionsPerWindow: number;
  connectionWindowMs: number;
  cooldownMs: number;
}

export class ConnectionWindow {
  private readonly opened = new Map<string, number[]>();
  private readonly cooldowns = new Map<string, number>();

  constructor(private readonly limits: ConnectionLimits) {}

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

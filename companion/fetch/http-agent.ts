/**
 * The fetch layer's keep-alive undici Agents, so pages of one host reuse their sockets instead
 * of opening a connection each. The default dispatcher is one Agent shared by every fetch in the
 * process that brings none (`train --pages` fetching its pages); undici fixes the connect
 * timeout when an Agent is built, so there is one shared Agent per distinct `connectTimeoutMs`
 * (in practice: one). A crawl brings its own, guarded by its address rule (`createGuardedAgent`).
 */
import { Agent, type Dispatcher } from 'undici';
import { guardedConnector, type GuardOptions } from './address-guard.ts';

const agents = new Map<number, Agent>();

/** Keep idle sockets this long; a polite crawler revisits a host every few seconds at most. */
const KEEP_ALIVE_MS = 10_000;

/** The process-wide Agent for this connect timeout, built on first use. */
export function sharedAgent(connectTimeoutMs: number): Dispatcher {
  let agent = agents.get(connectTimeoutMs);
  if (!agent) {
    agent = createFetchAgent(connectTimeoutMs);
    agents.set(connectTimeoutMs, agent);
  }
  return agent;
}

/**
 * A fresh Agent with the fetch layer's settings, for callers (and tests) that want their own
 * pool to close when done. undici's own idle timers stay as backstops; the fetch layer's
 * wall-clock deadline is what bounds a response.
 */
export function createFetchAgent(connectTimeoutMs: number): Agent {
  return agentWith({ timeout: connectTimeoutMs });
}

/**
 * An Agent with the fetch layer's settings that connects only where `guard.rule` allows, every
 * name resolved and checked at connect time (`address-guard.ts`). A crawl has its own, since its
 * rule is made of its own seeds, and closes it when it ends.
 */
export function createGuardedAgent(guard: GuardOptions): Agent {
  return agentWith(guardedConnector(guard));
}

function agentWith(connect: NonNullable<Agent.Options['connect']>): Agent {
  return new Agent({
    connect,
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: 60_000,
    // Never pipeline: one slow response must not hold the pages queued behind it.
    pipelining: 1,
  });
}

/** Closes the shared Agents (end of a crawl, end of a test run); later fetches build new ones. */
export async function closeSharedAgents(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((agent) => agent.close()));
}

/** Test helper: call a handler through the router with every check a real request gets (sender, input and output schemas). */
import type { Router } from '../../src/main/ipc/router';
import { AppError } from '../../src/shared/errors';
import type { Channel, Input, Output } from '../../src/shared/ipc';

export async function call<C extends Channel>(router: Router, channel: C, input: Input<C>): Promise<Output<C>> {
  const reply = await router.dispatch(channel, input, { sender: { kind: 'host', tokenValid: true } });
  if (!reply.ok) throw AppError.from(reply.error);
  return reply.output as Output<C>;
}

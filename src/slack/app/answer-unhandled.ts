/**
 * A global middleware that answers, once every listener is done, a request no listener
 * answered: a button, view or slash command of the right shape that the app does not have (an
 * old message's button, another app's command). Bolt would leave it unanswered until its 3 s
 * timeout and then answer 404; Slack shows the person an error for nothing. A listener that
 * failed is not answered here: its error goes on to app.error, and Slack is answered 500.
 */
import { type AnyMiddlewareArgs, ErrorCode, type Middleware } from '@slack/bolt';
import type { Logger } from 'pino';

/** Builds the middleware; register it first, so that it is the last to finish. */
export function answerUnhandled(logger: Logger): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    await args.next();
    // Events are acknowledged by Bolt before any middleware runs, and carry no ack.
    const ack = (args as { ack?: () => Promise<void> }).ack;
    if (!ack) return;
    try {
      await ack();
    } catch (error) {
      // A listener answered already, which is the usual case.
      if ((error as { code?: unknown }).code === ErrorCode.ReceiverMultipleAckError) return;
      throw error;
    }
    const body = args.body as { type?: unknown; command?: unknown };
    logger.debug(
      { payload_type: body.type ?? (body.command !== undefined ? 'slash_command' : undefined) },
      'answered a request no listener handles',
    );
  };
}

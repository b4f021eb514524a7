/**
 * Slack revoked tokens of the app in a workspace. The bot's token revoked, the installation is
 * of no use: it goes, as on `app_uninstalled`. Only people's user tokens revoked, the bot's
 * installation stays (the app calls Slack with its bot token alone).
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Logger } from 'pino';
import type { Installs } from '../../deps.ts';

/** Builds the tokens_revoked handler. */
export function tokensRevoked(deps: { installs: Installs; logger: Logger }) {
  return async ({
    context,
    event,
  }: SlackEventMiddlewareArgs<'tokens_revoked'> & AllMiddlewareArgs): Promise<void> => {
    const ref = {
      teamId: context.teamId,
      enterpriseId: context.enterpriseId,
      isEnterpriseInstall: context.isEnterpriseInstall === true,
    };
    const bots = event.tokens?.bot ?? [];
    if (bots.length > 0) {
      await deps.installs.remove(ref, 'tokens_revoked');
      return;
    }
    deps.logger.info(
      { team: ref.teamId, enterprise: ref.enterpriseId, users: event.tokens?.oauth?.length ?? 0 },
      'Slack revoked user tokens of the app; the bot’s installation stays',
    );
  };
}

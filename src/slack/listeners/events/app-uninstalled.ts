/**
 * A workspace (or, for an org-wide install, the organization) removed the app: its installation
 * goes, so nothing calls Slack with its dead token again. The other installations are untouched.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Installs } from '../../deps.ts';

/** Builds the app_uninstalled handler. */
export function appUninstalled(deps: { installs: Installs }) {
  return async ({
    context,
  }: SlackEventMiddlewareArgs<'app_uninstalled'> & AllMiddlewareArgs): Promise<void> => {
    await deps.installs.remove(
      {
        teamId: context.teamId,
        enterpriseId: context.enterpriseId,
        isEnterpriseInstall: context.isEnterpriseInstall === true,
      },
      'app_uninstalled',
    );
  };
}

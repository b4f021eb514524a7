/**
 * The inputs of the service-level clocks cards show: SLA_TARGETS and SLA_WARN_AT from the
 * settings, and the time read from the app's clock when a card is built (a test moves it).
 */
import type { Now } from '../../clock.ts';
import type { ClockInputs, ServiceTargets } from '../../contract/service-levels.ts';
import type { ServiceClockInputs, SlackSettings } from '../deps.ts';

/** SLA_WARN_AT's default: a clock warns when 80% of its time is gone. */
export const DEFAULT_SLA_WARN_AT = 0.8;

const NO_TARGETS: ServiceTargets = new Map();

/** The clocks' inputs at `nowMs`, from the settings (their defaults when unset). */
export function clockInputsAt(
  settings: Pick<SlackSettings, 'slaTargets' | 'slaWarnAt'>,
  nowMs: number,
): ClockInputs {
  return {
    targets: settings.slaTargets ?? NO_TARGETS,
    warnAt: settings.slaWarnAt ?? DEFAULT_SLA_WARN_AT,
    nowMs,
  };
}

/** The clocks' inputs as of each call of the result. */
export function serviceClockInputs(
  settings: Pick<SlackSettings, 'slaTargets' | 'slaWarnAt'>,
  now: Now,
): ServiceClockInputs {
  return () => clockInputsAt(settings, now());
}

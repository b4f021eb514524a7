/** The mirror (platform → Slack) and the shared rate budget's client hooks: the public surface. */

export {
  type BudgetHooks,
  type BudgetHooksOptions,
  createBudgetHooks,
  type HookLogger,
} from './budget-hooks.ts';
export { BudgetPacer, type BudgetPacerOptions } from './budget-pacer.ts';
export {
  ChangeFeed,
  type ChangeFeedMode,
  type ChangeFeedOptions,
  type ChangeFeedScan,
  type RangeChoice,
} from './change-feed.ts';
export { detectFeedWay, type FeedDetection } from './change-feed-detect.ts';
export type { FeedWay } from './change-feed-record.ts';
export {
  type ClockWarningPosted,
  ClockWatch,
  type ClockWatchOptions,
  clockWarningItemId,
  isFirstResponse,
  withFirstResponse,
} from './clock-watch.ts';
export * from './errors.ts';
export {
  type Look,
  type LookDecision,
  type LookEvent,
  type LookInput,
  type LookRule,
  type LookRules,
  type LookTuning,
  lookRules,
  nextLook,
} from './look-policy.ts';
export type { Mirror, MirroredTicket, SlackChange } from './mirror.ts';
export { MirrorComponent, type MirrorComponentOptions } from './mirror-component.ts';
export { initialMirrorState, type MirrorState } from './mirror-state.ts';
export {
  MIRROR_TUNING,
  type Tunable,
  type TuningGroup,
  type TuningValues,
  tuningOf,
} from './mirror-tuning.ts';
export { MirrorWorker, type MirrorWorkerOptions } from './mirror-worker.ts';
export {
  ownMessageIdMark,
  ownMessageTextMark,
  PERSON_ASKED_MARK,
  reopenAnnouncedMark,
  slackChangeMark,
  triageMessageIdMark,
} from './own-marks.ts';
export {
  AdaptivePlanner,
  type AdaptivePlannerOptions,
  FixedPlanner,
  isSettled,
  type LookPriority,
  type Pace,
  type PollKind,
  type PollPlanner,
  RELAXED_PACE,
} from './poll-planner.ts';
export { PAGE_SIZE, planSweep, type SweepPlan, type SweepRange } from './sweep-plan.ts';
export type { RelinkPlatform } from './thread-relink.ts';
export { type HintOutcome, TicketHints, type TicketHintsOptions } from './ticket-hints.ts';
export {
  type TriageCardPosted,
  TriageFeed,
  type TriageFeedOptions,
  triageCardKey,
} from './triage-feed.ts';
export type * from './types.ts';
export {
  WEBHOOK_PATH,
  type WebhookOutcome,
  type WebhookReceiverOptions,
  webhookHandler,
} from './webhook-receiver.ts';

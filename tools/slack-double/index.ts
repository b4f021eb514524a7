/**
 * The Slack double: a Web API server the app's WebClient talks to, and a driver that sends the
 * app what Slack sends. Used by the end-to-end tests and the browser sandbox.
 */

export { type AdminInstall, installAsAdmin } from './admin-install.ts';
export type { AppAnswer, DeliveryAttempt, RetrySimulation } from './app-transport.ts';
export {
  type ChannelSeed,
  defaultIds,
  defaultWorkspaceSeed,
  nthWorkspaceIds,
  nthWorkspaceSeed,
  orgWideChannelSeed,
  secondIds,
  secondWorkspaceSeed,
  type TeamSeed,
  type UsergroupSeed,
  type UserSeed,
  type WorkspaceSeed,
} from './default-workspace.ts';
export * from './errors.ts';
export { type IssuedToken, OAuthExchange } from './oauth-exchange.ts';
export { type SignOptions, signatureHeaders, slackSignature } from './request-signing.ts';
export type { ResponseUrlContext, ResponseUrlEffect } from './response-url.ts';
export {
  type InjectedFailure,
  type RecordedCall,
  type ResponseUrlPost,
  SlackDouble,
  type SlackDoubleOptions,
  startSlackDouble,
} from './slack-double-server.ts';
export {
  type BlockSuggestionResult,
  type EventDelivery,
  type EventOptions,
  type InteractionResult,
  OPTIONS_ANSWER_MS,
  SlackDriver,
  type SlackDriverOptions,
  type SlashCommandResult,
  type UserMessageResult,
  type ViewSubmissionResult,
} from './slack-driver.ts';
export type { EventEnvelope } from './slack-payloads.ts';
export { type SocketAck, type SocketEnvelopeType, SocketModeServer } from './socket-mode.ts';
export { SocketModeDriver, type SocketSlashCommandResult } from './socket-mode-driver.ts';
export type { InputValue, SubmittedValues } from './view-state.ts';
export type { ApiResponse } from './web-api/args.ts';
export {
  type CompletionAnswer,
  RUN_TOKEN_TTL_MS,
  type RunState,
  type StepDefinition,
  type StepParameter,
  stepDefinitionFromManifest,
  type WorkflowRun,
  WorkflowRuns,
} from './workflow-runs.ts';
export type {
  AssistantPrompt,
  AssistantThread,
  Conversation,
  EphemeralMessage,
  SlackMessage,
  SlackUser,
  SlackView,
  Workspace,
} from './workspace.ts';

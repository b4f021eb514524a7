/**
 * What the Slack double knows of one Web API method, whether from Slack's description or added
 * by hand (the assistant methods): apart so that both sources name it without a circle.
 */

/** One Web API method as Slack describes it. */
export interface MethodDescription {
  /** Every argument it takes (`token` among them, which the app sends as a header). */
  params: ReadonlySet<string>;
  /** The arguments it cannot do without. */
  required: ReadonlySet<string>;
  /** Slack's page about it. */
  docs: string;
}

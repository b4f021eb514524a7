/** What one check of `npm run doctor` found: the shape every check shares. */

/** A check's verdict: only `fail` makes the doctor exit non-zero. */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

/** One check. */
export interface DoctorCheck {
  name: string;
  status: CheckStatus;
  /** What was found. */
  summary: string;
  /** What to do about it, when something is to be done. */
  fix?: string;
}

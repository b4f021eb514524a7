/**
 * `views.*`: modals and App Home. A modal opens only with a trigger id the driver issued, within
 * Slack's 3 seconds and once; updates may be guarded by the view's hash.
 */
import type { JsonObject } from '../block-kit.ts';
import { viewProblems } from '../block-kit-validation.ts';
import type { ViewInput, Workspace } from '../workspace.ts';
import {
  type ApiArgs,
  type ApiMethod,
  type ApiResponse,
  fail,
  jsonArg,
  missingArgument,
  ok,
  stringArg,
} from './args.ts';

function toViewInput(view: JsonObject): ViewInput {
  const input: ViewInput = { type: String(view.type), blocks: view.blocks as unknown[] };
  if (view.title !== undefined) input.title = view.title;
  if (view.close !== undefined) input.close = view.close;
  if (view.submit !== undefined) input.submit = view.submit;
  if (typeof view.private_metadata === 'string') input.private_metadata = view.private_metadata;
  if (typeof view.callback_id === 'string') input.callback_id = view.callback_id;
  if (typeof view.external_id === 'string') input.external_id = view.external_id;
  if (typeof view.clear_on_close === 'boolean') input.clear_on_close = view.clear_on_close;
  if (typeof view.notify_on_close === 'boolean') input.notify_on_close = view.notify_on_close;
  if (typeof view.submit_disabled === 'boolean') input.submit_disabled = view.submit_disabled;
  return input;
}

/**
 * Checks the view payload on a surface; `ownViewId` is the view being updated, which may keep
 * its own external_id.
 */
export function checkView(
  workspace: Workspace,
  raw: unknown,
  surface: 'modal' | 'home',
  ownViewId?: string,
): { input: ViewInput } | { failure: ApiResponse } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      failure: fail('invalid_arguments', ['[ERROR] must be an object [json-pointer:/view]']),
    };
  }
  const view = raw as JsonObject;
  const problems = viewProblems(view, surface);
  if (problems.length > 0) return { failure: fail('invalid_arguments', problems) };
  const input = toViewInput(view);
  if (input.external_id !== undefined) {
    const holder = workspace.viewByExternalId(input.external_id);
    if (holder && holder.id !== ownViewId) return { failure: fail('duplicate_external_id') };
  }
  return { input };
}

function viewArg(
  workspace: Workspace,
  args: ApiArgs,
  surface: 'modal' | 'home',
  ownViewId?: string,
): { input: ViewInput } | { failure: ApiResponse } {
  const parsed = jsonArg(args, 'view');
  if (!parsed.present) return { failure: missingArgument('view') };
  if (parsed.invalid) {
    return { failure: fail('invalid_arguments', ['[ERROR] invalid JSON [json-pointer:/view]']) };
  }
  return checkView(workspace, parsed.value, surface, ownViewId);
}

const open: ApiMethod = (workspace, args) => {
  const triggerId = stringArg(args, 'trigger_id');
  if (triggerId === undefined) return missingArgument('trigger_id');
  const view = viewArg(workspace, args, 'modal');
  if ('failure' in view) return view.failure;
  const exchanged = workspace.exchangeTrigger(triggerId);
  if ('refusal' in exchanged) return fail(exchanged.refusal);
  return ok({ view: workspace.openModal(exchanged.userId, view.input) });
};

const push: ApiMethod = (workspace, args) => {
  const triggerId = stringArg(args, 'trigger_id');
  if (triggerId === undefined) return missingArgument('trigger_id');
  const view = viewArg(workspace, args, 'modal');
  if ('failure' in view) return view.failure;
  const exchanged = workspace.exchangeTrigger(triggerId);
  if ('refusal' in exchanged) return fail(exchanged.refusal);
  const pushed = workspace.pushModal(exchanged.userId, view.input);
  return pushed === 'push_limit_reached' ? fail(pushed) : ok({ view: pushed });
};

const update: ApiMethod = (workspace, args) => {
  const viewId = stringArg(args, 'view_id');
  const externalId = stringArg(args, 'external_id');
  if (viewId === undefined && externalId === undefined) return missingArgument('view_id');
  const existing =
    viewId !== undefined ? workspace.view(viewId) : workspace.viewByExternalId(externalId ?? '');
  if (!existing) return fail('not_found');
  const hash = stringArg(args, 'hash');
  if (hash !== undefined && hash !== existing.hash) return fail('hash_conflict');
  const surface = existing.type === 'home' ? 'home' : 'modal';
  const view = viewArg(workspace, args, surface, existing.id);
  if ('failure' in view) return view.failure;
  return ok({ view: workspace.updateView(existing.id, view.input) });
};

const publish: ApiMethod = (workspace, args) => {
  const userId = stringArg(args, 'user_id');
  if (userId === undefined) return missingArgument('user_id');
  if (!workspace.user(userId)) return fail('user_not_found');
  const current = workspace.homeView(userId);
  const view = viewArg(workspace, args, 'home', current?.id);
  if ('failure' in view) return view.failure;
  const hash = stringArg(args, 'hash');
  if (hash !== undefined && current && hash !== current.hash) return fail('hash_conflict');
  return ok({ view: workspace.publishHome(userId, view.input) });
};

/** The `views.*` methods the double implements. */
export const viewsMethods: Record<string, ApiMethod> = {
  'views.open': open,
  'views.push': push,
  'views.update': update,
  'views.publish': publish,
};

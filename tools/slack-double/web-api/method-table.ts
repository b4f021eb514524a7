/** Every Web API method the double answers, by Slack's method name. */
import type { ApiMethod } from './args.ts';
import { assistantMethods } from './assistant-methods.ts';
import { chatMethods } from './chat-methods.ts';
import { conversationsMethods } from './conversations-methods.ts';
import { pinsMethods } from './pins-methods.ts';
import { reactionsMethods } from './reactions-methods.ts';
import { usersMethods } from './users-methods.ts';
import { viewsMethods } from './views-methods.ts';

/** Method name → implementation; a name not here is answered `unknown_method`. */
export const webApiMethods: ReadonlyMap<string, ApiMethod> = new Map(
  Object.entries({
    ...usersMethods,
    ...chatMethods,
    ...conversationsMethods,
    ...reactionsMethods,
    ...pinsMethods,
    ...viewsMethods,
    ...assistantMethods,
  }),
);

// @ts-check
/**
 * The emoji the app and people use, by Slack name; an unknown name is shown as `:name:`.
 * @type {Readonly<Record<string, string>>}
 */
const EMOJI = {
  '+1': '👍',
  '-1': '👎',
  alarm_clock: '⏰',
  arrow_down: '⬇️',
  arrow_right: '➡️',
  arrow_up: '⬆️',
  arrow_up_small: '🔼',
  arrows_counterclockwise: '🔄',
  bell: '🔔',
  black_circle: '⚫',
  book: '📖',
  books: '📚',
  bookmark: '🔖',
  bulb: '💡',
  bust_in_silhouette: '👤',
  busts_in_silhouette: '👥',
  calendar: '📆',
  checkered_flag: '🏁',
  clap: '👏',
  clipboard: '📋',
  clock3: '🕒',
  closed_lock_with_key: '🔐',
  computer: '💻',
  construction: '🚧',
  desktop_computer: '🖥️',
  double_vertical_bar: '⏸️',
  email: '📧',
  envelope: '✉️',
  exclamation: '❗',
  eyes: '👀',
  fire: '🔥',
  gear: '⚙️',
  grey_question: '❔',
  hammer: '🔨',
  hammer_and_wrench: '🛠️',
  hand: '✋',
  handshake: '🤝',
  headphones: '🎧',
  heart: '❤️',
  heavy_check_mark: '✔️',
  heavy_minus_sign: '➖',
  heavy_plus_sign: '➕',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  inbox_tray: '📥',
  incoming_envelope: '📨',
  information_source: 'ℹ️',
  iphone: '📱',
  key: '🔑',
  keyboard: '⌨️',
  label: '🏷️',
  large_blue_circle: '🔵',
  large_blue_diamond: '🔷',
  large_green_circle: '🟢',
  large_orange_circle: '🟠',
  large_purple_circle: '🟣',
  large_yellow_circle: '🟡',
  left_speech_bubble: '🗨️',
  link: '🔗',
  lock: '🔒',
  loudspeaker: '📢',
  mag: '🔍',
  mega: '📣',
  memo: '📝',
  muscle: '💪',
  new: '🆕',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  ok: '🆗',
  ok_hand: '👌',
  outbox_tray: '📤',
  package: '📦',
  page_facing_up: '📄',
  paperclip: '📎',
  pencil: '📝',
  pencil2: '✏️',
  person_raising_hand: '🙋',
  phone: '☎️',
  point_right: '👉',
  pray: '🙏',
  printer: '🖨️',
  pushpin: '📌',
  question: '❓',
  raised_hand: '✋',
  raised_hands: '🙌',
  raising_hand: '🙋',
  red_circle: '🔴',
  repeat: '🔁',
  robot_face: '🤖',
  rocket: '🚀',
  rotating_light: '🚨',
  round_pushpin: '📍',
  shield: '🛡️',
  slightly_smiling_face: '🙂',
  small_blue_diamond: '🔹',
  small_orange_diamond: '🔸',
  small_red_triangle: '🔺',
  scissors: '✂️',
  smile: '😄',
  sos: '🆘',
  sparkles: '✨',
  speech_balloon: '💬',
  star: '⭐',
  stopwatch: '⏱️',
  sunny: '☀️',
  tada: '🎉',
  technologist: '🧑‍💻',
  thinking_face: '🤔',
  thought_balloon: '💭',
  thumbsdown: '👎',
  thumbsup: '👍',
  ticket: '🎫',
  tools: '🛠️',
  triangular_flag_on_post: '🚩',
  unlock: '🔓',
  warning: '⚠️',
  wave: '👋',
  white_check_mark: '✅',
  white_circle: '⚪',
  wrench: '🔧',
  x: '❌',
  zap: '⚡',
  zzz: '💤',
};

/**
 * The character of an emoji name (without colons), or undefined when unknown.
 * @param {string} name
 * @returns {string | undefined}
 */
export function emojiChar(name) {
  return Object.hasOwn(EMOJI, name) ? EMOJI[name] : undefined;
}

/**
 * Replaces `:name:` codes with their characters, leaving unknown ones as written.
 * @param {string} text
 */
export function withEmoji(text) {
  return text.replace(/:([a-z0-9_+'-]+):/g, (code, name) => emojiChar(name) ?? code);
}

/**
 * The emoji offered by the reaction picker, the app's ticket emoji first, then the agents'
 * actions on a triage card (TRIAGE_REACTIONS' default: assign, resolve, raise).
 * @type {readonly string[]}
 */
export const REACTION_CHOICES = [
  'ticket',
  'eyes',
  'white_check_mark',
  'arrow_up_small',
  '+1',
  'pray',
  'tada',
];

/**
 * Runs before every npm script that runs TypeScript: Node runs our `.ts` sources by type
 * stripping, which an older Node refuses with ERR_UNKNOWN_FILE_EXTENSION, a message that names
 * neither the cause nor the fix. CommonJS and old syntax on purpose: it must itself run on the
 * old Node it turns away. `npm ci` is guarded by `engine-strict` in .npmrc instead, against the
 * same range, because npm runs a preinstall script only once the dependencies are installed.
 */
'use strict';

/**
 * The Node versions the app and its dependencies all accept, as package.json's `engines` and
 * the lockfile's root write it. 22.20: the lockfile's highest minimum (undici, a production
 * dependency, wants 22.19 and nock 22.20; type stripping needs 22.18). 23 and 25: vitest's own
 * `engines` refuses those odd lines.
 */
const NODE_RANGE = '^22.20.0 || ^24.0.0 || >=26.0.0';

/** Each accepted line as [major, lowest minor, whether later majors are accepted too]. */
const ACCEPTED = [
  [22, 20, false],
  [24, 0, false],
  [26, 0, true],
];

/** Whether a Node version (`process.versions.node`, with or without a leading v) can run the app. */
function nodeCanRun(version) {
  const parts = String(version).replace(/^v/, '').split('.');
  const major = Number(parts[0]);
  const minor = Number(parts[1]);
  if (!Number.isInteger(major) || !Number.isInteger(minor)) return false;
  return ACCEPTED.some((a) => (major === a[0] && minor >= a[1]) || (a[2] && major > a[0]));
}

/** The npm command a person typed, from npm's own note of the script it runs. */
function typedCommand(lifecycleEvent) {
  if (!lifecycleEvent) return 'npm start';
  if (lifecycleEvent === 'start' || lifecycleEvent === 'test') return `npm ${lifecycleEvent}`;
  return `npm run ${lifecycleEvent}`;
}

/**
 * What to tell a person whose Node cannot run the app, or undefined when it can. `where` names
 * the command they ran and the platform, so the advice can be pasted as it is.
 */
function nodeVersionProblem(version, where) {
  if (nodeCanRun(version)) return undefined;
  const w = where || {};
  const command = typedCommand(w.lifecycleEvent);
  const platform = `${w.platform === 'win32' ? 'win' : w.platform || 'linux'}-${w.arch || 'x64'}`;
  const home = '~/.cache/servicedesk-slack/node24';
  return [
    `servicedesk-slack needs Node.js 22.20 or newer, but not 23 or 25 (24 LTS recommended).`,
    `This is Node.js ${String(version).replace(/^v/, '')}${w.execPath ? ` (${w.execPath})` : ''}.`,
    '',
    'Get Node 24 in one of these ways, then run the command again:',
    '  - with nvm, which reads .nvmrc:  nvm install && nvm use',
    `  - just this once, from npm:      npx -y -p node@24 -- ${command}`,
    '  - from npm, as .ci/run does:',
    `      npm install --prefix ${home} node-${platform}@24`,
    `      export PATH=${home}/node_modules/node-${platform}/bin:$PATH`,
    '  - from your system package manager, or https://nodejs.org/en/download',
  ].join('\n');
}

module.exports = { NODE_RANGE, nodeCanRun, nodeVersionProblem };

if (require.main === module) {
  const problem = nodeVersionProblem(process.versions.node, {
    lifecycleEvent: process.env.npm_lifecycle_event,
    execPath: process.execPath,
    platform: process.platform,
    arch: process.arch,
  });
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}

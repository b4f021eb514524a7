/**
 * Slack installations sealed at rest: AES-256-GCM (node:crypto) with a 32-byte key from the
 * environment (SLACK_TOKEN_KEY). The whole installation is sealed, its tokens with it, and the
 * place it is kept under is the additional data, so a sealed value copied under another
 * workspace's key does not open. Only what names an installation (ids, scopes, when) is kept
 * beside it in the clear, for listing without the key.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { StoreDataError } from './errors.ts';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Seals and opens text with one key. */
export class TokenCipher {
  readonly #key: Buffer;

  /** `key`: 32 bytes, or their base64 (what SLACK_TOKEN_KEY holds). */
  constructor(key: Buffer | string) {
    const bytes = typeof key === 'string' ? Buffer.from(key, 'base64') : key;
    if (bytes.length !== 32) throw new TypeError('the token key must be 32 bytes (base64)');
    this.#key = Buffer.from(bytes);
  }

  /** `text` sealed for `place` (base64 of iv, tag and ciphertext). */
  seal(text: string, place: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#key, iv);
    cipher.setAAD(Buffer.from(place));
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /** The text sealed for `place`; StoreDataError when the key or the place differ. */
  open(sealed: string, place: string): string {
    const bytes = Buffer.from(sealed, 'base64');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new StoreDataError('sealed value too short');
    const decipher = createDecipheriv(ALGORITHM, this.#key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(place));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch (error) {
      throw new StoreDataError(
        'an installation does not open with SLACK_TOKEN_KEY (another key, or altered)',
        { cause: error },
      );
    }
  }
}

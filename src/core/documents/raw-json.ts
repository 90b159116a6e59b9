/**
 * The stored text of a `json` or `blocks` value, as a read hands it out when the caller only
 * serialises it (the REST content API): the text goes into the response as is, without a parse and
 * a re-stringify. `JSON.stringify` of a RawJson (or of anything holding one) still gives the
 * parsed value, so a RawJson that reaches an ordinary serialiser is no harm.
 */
export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

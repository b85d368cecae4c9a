/**
 * UK postcodes, read with the `postcode` package (Ideal Postcodes' parser of the Royal Mail format,
 * BS 7666): whether one is written in the format, what it should read when it is not, and its
 * area (the leading letters: "CH" of "CH7 1AR"), which the place rules compare positions by.
 */
import { fix, isValid, toArea, toNormalised } from "postcode";

// The one postcode outside the pattern (Girobank's), which the package does not accept.
const GIROBANK = "GIR 0AA";

/** Whether `value` is a postcode written as Royal Mail writes it: capitals, one space. */
export function isRoyalMailForm(value: string): boolean {
  return value === GIROBANK || (isValid(value) && toNormalised(value) === value);
}

/**
 * How `value` should be written, when a fix gives a postcode in the format: spaces and capitals
 * put right, and a letter O or I where the inward code's digit belongs read as 0 or 1.
 */
export function postcodeFix(value: string): string | undefined {
  const fixed = fix(value.trim());
  return isRoyalMailForm(fixed) && fixed !== value ? fixed : undefined;
}

/** The postcode area of `value` ("CH" of "CH7 1AR"), or undefined when it is no postcode. */
export function postcodeArea(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const fixed = fix(value.trim());
  return isValid(fixed) ? (toArea(fixed) ?? undefined) : undefined;
}

/** The headers every response starts from (contract/headers.ts names them). */
import { BASE_HEADERS } from "../../contract/headers.js";

/** A fresh, mutable header list starting from BASE_HEADERS. */
export function baseHeaders(): Headers {
  return new Headers(BASE_HEADERS);
}

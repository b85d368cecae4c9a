/** Where the API reference is served (page.ts makes it; the landing page links to it). */
export const REFERENCE_PATH = "/reference";

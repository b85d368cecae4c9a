export default {
  async fetch(): Promise<Response> {
    return new Response("placeholder");
  },
} satisfies ExportedHandler;

// The cashier page's CSS and browser script are imported as text (`with { type: "text" }`) so the
// compiled binary carries them; tell tsc that these imports are strings, not modules.
declare module "*/cashier.css" {
  const text: string;
  export default text;
}

declare module "*/cashier.js" {
  const text: string;
  export default text;
}

declare module "*.svg" {
  const text: string;
  export default text;
}

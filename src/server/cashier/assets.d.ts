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

// `with { type: "file" }`: a path the compiled binary resolves to its embedded copy.
declare module "*.ico" {
  const path: string;
  export default path;
}

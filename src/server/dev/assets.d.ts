// The dev panel's CSS and script are imported as text (like the cashier's), so a compiled binary
// carries them.
declare module "*/panel.css" {
  const text: string;
  export default text;
}

declare module "*/panel.js" {
  const text: string;
  export default text;
}

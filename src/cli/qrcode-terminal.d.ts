// qrcode-terminal ships no types; this is the one call xpay makes.
declare module "qrcode-terminal" {
  const qrcodeTerminal: {
    generate(input: string, opts: { small?: boolean }, cb: (output: string) => void): void;
  };
  export default qrcodeTerminal;
}

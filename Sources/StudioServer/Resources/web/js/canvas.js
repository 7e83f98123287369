// One canvas-sizing helper for every page: a canvas's backing store follows its CSS size times the
// device's pixel ratio, so that drawings stay sharp on a phone and cost nothing extra on a laptop.
//
//   import { fitCanvas } from "/js/canvas.js";
//   const { width, height, ratio, resized } = fitCanvas(canvas);          // device pixels
//   const { width, height } = fitCanvas(canvas, { square: true });       // a dial: width × width

/**
 * Sizes `canvas` to its CSS box × devicePixelRatio (at most `maxRatio`; `square` uses the width for both) and
 * returns the backing store's `width` and `height` in device pixels, the `ratio` and whether it `resized`
 * (which clears the canvas). A canvas with no layout box (hidden) keeps its attribute size.
 */
export function fitCanvas(canvas, { maxRatio = Infinity, square = false } = {}) {
  const ratio = Math.min(window.devicePixelRatio || 1, maxRatio);
  const cssWidth = canvas.clientWidth || canvas.width / ratio;
  const cssHeight = square ? cssWidth : (canvas.clientHeight || canvas.height / ratio);
  const width = Math.max(1, Math.round(cssWidth * ratio)), height = Math.max(1, Math.round(cssHeight * ratio));
  const resized = canvas.width !== width || canvas.height !== height;
  if (resized) { canvas.width = width; canvas.height = height; }
  return { width, height, ratio, resized };
}

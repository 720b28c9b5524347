// The only third-party code the page loads, bundled by `npm run vendor` (see setup.sh).
export {
  forceSimulation,
  forceLink,
  forceManyBody,
  forceCenter,
  forceX,
  forceY,
  forceCollide,
} from "d3-force";

// The page's one library: Preact (components as functions of the state) with htm (tagged
// templates, so no build step), vendored as one ES module. Every component imports from here.
export {
  Component,
  createContext,
  h,
  html,
  render,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "../vendor/htm-preact-standalone-3.1.1.module.js";

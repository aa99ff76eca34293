// elk's own worker script: loaded in a worker it answers elk-api's messages on `self`, so the
// layered layout of a large pipeline runs off the main thread (see layout.ts).
import 'elkjs/lib/elk-worker.min.js';

// The one script of every page of ours inside a merchant page (the card fields, the invisible
// controller, the 3-D Secure challenge page): one content-hashed file, cached for a year, so the
// six frames of a checkout download it once. The page's configuration says which frame it is.
import { startChallenge } from "./challenge";
import { startController } from "./controller";
import { startField } from "./field";
import { createFrameContext } from "./frame-context";

const context = createFrameContext();
if (context?.config.field === "controller") startController(context);
else if (context?.config.field === "challenge") startChallenge(context);
else startField(context);

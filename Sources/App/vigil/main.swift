import SessionRuntime
import VigilCLI

// Where the product's plug-ins are named: a new sensor or action is one module and one line here,
// `PlugInRegistry.builtIn.adding(.browser)` (docs/plugins.md). Everything else is VigilCLI.
await VigilProgram.main(plugIns: PlugInRegistry.builtIn)

import SessionRuntime
import TestPlugIns
import VigilCLI

// `vigil` composed with the tests' plug-ins exactly as the product's main composes its own: one
// line per module (Sources/App/vigil/main.swift).
await VigilProgram.main(plugIns: PlugInRegistry.builtIn.adding(.phone).adding(.journal))

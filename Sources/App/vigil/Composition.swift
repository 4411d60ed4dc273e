import VigilRuntime

/// Where the product's plug-ins are named: the one place a new sensor is registered, with one line
/// (`PlugInRegistry.builtIn.adding(.browser)`). Every command that runs, replays, records,
/// inspects or lists sensors takes the registry from here (docs/plugins.md).
enum Composition {
    static let registry = PlugInRegistry.builtIn
}

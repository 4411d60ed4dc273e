import SessionRuntime
import Synchronization

/// The plug-ins this program was composed with. The product's one list is its `main`
/// (`Sources/App/vigil/main.swift`), the one place a new sensor or action is registered, with one
/// line; every command that runs, replays, records, inspects, lists sensors or reads the config
/// takes the registry from here (docs/plugins.md).
enum Composition {
    private static let composed = Mutex(PlugInRegistry.builtIn)

    static var registry: PlugInRegistry { composed.withLock { $0 } }

    fileprivate static func compose(_ registry: PlugInRegistry) { composed.withLock { $0 = registry } }
}

/// The `vigil` command line, as a program's `main` runs it.
public enum VigilProgram {
    /// Parses the command line and runs the command with these plug-ins (`PlugInRegistry.builtIn`
    /// and any added to it); exits with the command's status.
    public static func main(plugIns registry: PlugInRegistry) async {
        Composition.compose(registry)
        await Vigil.main()
    }
}

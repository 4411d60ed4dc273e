/// Where one recorded session ends and the next begins.
public enum RecordedSessions {
    /// A silence longer than this separates two sessions (a night, a weekend, a long lunch with
    /// the computer on in another tool's export): longer than any silence a session of one sitting
    /// has (the machine asleep over a short break), shorter than a night. `vigil replay --split`
    /// splits there, an ActivityWatch export's afk stretches longer than this end its sessions, and
    /// `vigil inspect` counts no time in front across one.
    public static let silence = 3600.0
}

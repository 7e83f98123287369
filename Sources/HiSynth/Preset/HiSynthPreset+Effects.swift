extension HiSynthPreset {
    /// The effects, run in the fixed order decimator → drive → delay → reverb.
    public struct Effects: Sendable, Hashable {
        public var reverb: Reverb
        public var delay: Delay
        public var decimator: Decimator
        public var drive: Drive

        public init(reverb: Reverb, delay: Delay, decimator: Decimator, drive: Drive) {
            self.reverb = reverb
            self.delay = delay
            self.decimator = decimator
            self.drive = drive
        }
    }
}

/// Why a controller cannot rumble, naming the device and the system's reason.
public struct EvdevRumbleError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        /// No event device with force feedback (rumble) was found.
        case noController
        /// The device cannot be opened (errno).
        case cannotOpen(errno: Int32)
        /// The device has no FF_RUMBLE.
        case noRumble
        /// Uploading or playing an effect failed (errno).
        case effectFailed(errno: Int32)
    }

    public var device: String
    public var problem: Problem

    public init(device: String, _ problem: Problem) {
        self.device = device
        self.problem = problem
    }

    public var description: String {
        switch problem {
        case .noController:
            return "no game controller with rumble found (looked at /dev/input/event*; connect one, or check that you may open it: usually the 'input' group)"
        case .cannotOpen(let e): return "cannot open \(device): \(EvdevRumbleError.reason(e))"
        case .noRumble: return "\(device) has no rumble (FF_RUMBLE) force feedback"
        case .effectFailed(let e): return "\(device): rumble effect failed: \(EvdevRumbleError.reason(e))"
        }
    }

    static func reason(_ e: Int32) -> String {
        switch e {
        case 2: return "no such device (ENOENT)"
        case 13: return "permission denied (EACCES): add yourself to the 'input' group or use a udev rule"
        case 19: return "device is gone (ENODEV)"
        case 28: return "no free effect slot (ENOSPC)"
        case 38: return "not supported on this system"
        default: return "errno \(e)"
        }
    }
}

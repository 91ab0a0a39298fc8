/// How a new session was opened, and on which remembered device.
package struct SessionOrigin: Sendable, Equatable {
    package let proof: String
    package let deviceId: String?
    package let coolingUntil: Int64
    package init(proof: String, deviceId: String?, coolingUntil: Int64 = 0) {
        self.proof = proof
        self.deviceId = deviceId
        self.coolingUntil = coolingUntil
    }
}

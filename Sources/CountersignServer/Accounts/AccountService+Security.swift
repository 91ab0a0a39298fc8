import CountersignAPI
import CountersignStore

extension AccountService {
    /// `GET /account/security`: what protects the account now.
    package func security(userId: String, session: LiveSession?) async throws -> AccountSecurityResponse {
        let now = clock.nowMillis()
        let (user, keys) = try await database.read { sql in
            (try await sql.users.find(id: userId), try await sql.credentials.list(userId: userId))
        }
        guard let user else { throw APIError.unauthenticated }
        let pin = try await database.read { sql in try await sql.users.pinLock(userId: userId) }
        let lockedUntil = pin.lockedUntil
        let cooling = max(
            session?.coolingUntil ?? 0, keys.filter { $0.flaggedAt == nil }.map(\.coolingUntil).max() ?? 0)
        return AccountSecurityResponse(
            phone: user.phone, phoneVerified: user.phoneVerifiedAt != nil,
            pinLockedUntil: lockedUntil > now ? WallClock.iso8601(millis: lockedUntil) : nil,
            pinResetRequired: pin.blocked,
            pinCoolingOffUntil: user.pinCoolingUntil > now ? WallClock.iso8601(millis: user.pinCoolingUntil) : nil,
            deviceCoolingOffUntil: cooling > now ? WallClock.iso8601(millis: cooling) : nil,
            newDeviceMaxAmount: configuration.newDeviceMaxAmount, currency: configuration.currency)
    }

    /// `GET /account/devices`: the devices that may sign in with the PIN alone.
    package func devices(userId: String, currentDeviceId: String?) async throws -> RememberedDeviceList {
        let list = try await database.read { sql in try await sql.knownDevices.list(userId: userId) }
        return RememberedDeviceList(
            devices: list.map {
                RememberedDevice(
                    id: $0.id, label: $0.label, createdAt: WallClock.iso8601(millis: $0.createdAt),
                    lastUsedAt: WallClock.iso8601(millis: $0.lastUsedAt), current: $0.id == currentDeviceId)
            })
    }

    /// `DELETE /account/devices/{id}`: forgets a device and ends its sessions; 404 `unknown_device`.
    package func forgetDevice(userId: String, deviceId: String) async throws {
        let now = clock.nowMillis()
        try await database.transaction { sql in
            guard try await sql.knownDevices.revoke(id: deviceId, userId: userId, now: now) else {
                throw APIError(.unknownDevice, "You have no remembered device with that id.")
            }
            try await sql.sessions.revokeAll(userId: userId, deviceId: deviceId, now: now)
            try await sql.accountEvents.record(
                userId: userId, kind: .deviceForgotten, detail: "A device was forgotten and signed out.", now: now)
        }
        sessionSignals.sessionsEnded(userId: userId)
    }

    /// `GET /account/activity`: the latest 50 security events, newest first.
    package func activity(userId: String) async throws -> AccountActivity {
        return AccountActivity(
            events: try await database.read { sql in try await sql.accountEvents.list(userId: userId, limit: 50) })
    }
}

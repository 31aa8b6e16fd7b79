-- CreateEnum
CREATE TYPE "ThreeDsChallengePreference" AS ENUM ('no_preference', 'no_challenge', 'challenge_requested', 'challenge_mandated');

-- AlterTable
ALTER TABLE "HostedIntegration" ADD COLUMN     "threeDsChallengePreference" "ThreeDsChallengePreference" NOT NULL DEFAULT 'no_preference';

-- AlterTable
ALTER TABLE "ThreeDsAuthentication" ADD COLUMN     "acsChallengeMandated" TEXT,
ADD COLUMN     "challengeIndicator" TEXT;

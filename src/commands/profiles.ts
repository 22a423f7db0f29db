import * as Flags from '@oclif/core/flags'
import {BaseCommand} from '../cli/base-command.js'
import {listProfiles} from '../services/profiles.js'

export default class Profiles extends BaseCommand {
  static override summary = 'List the logic changes between the modelled GuardKit versions, and the profiles built from them.'
  static override description = `Every behavioural difference between GuardKit at f86b1bf9 (legacy) and 5c1aea32 (fixed) is one flag, with the commit that landed it and the seed or change that caused it. A profile is a set of flags: legacy, fixed, pre-acr, as-run:<commit> (the logic as it ran at that commit), or your own (--profiles FILE).`
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --json | jq \'.profiles[] | select(.name=="legacy").flags\'',
    '<%= config.bin %> <%= command.id %> --profiles my-profiles.yaml',
  ]
  static override enableJsonFlag = true
  static override flags = {
    profiles: Flags.string({description: 'YAML file defining your own profiles: profiles: {NAME: {base, with: [flag…], without: [flag…]}}', helpValue: 'FILE'}),
  }

  async run() {
    const {flags} = await this.parse(Profiles)
    return this.present({kind: 'profiles', report: await listProfiles(flags.profiles)}, 'text')
  }
}
